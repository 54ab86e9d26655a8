package io.loadlab.agent;

import io.loadlab.subject.ServerSampler;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.ThrowawayCa;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A subject that the agent on a subject host ({@code loadlab agent --allow-subjects}) built and started
 * from its own checkout, for one coordinator: where it listens, its window sampled there by the agent's
 * {@link ServerSampler}, and its stop. The connection to the agent is its own session; when this
 * process ends or loses the connection, the agent stops the subject by itself. Not thread-safe.
 */
public final class RemoteSubject implements AutoCloseable {

    /** How long to try to reach the agent. */
    static final Duration CONNECT = Duration.ofSeconds(10);
    /** Longest answer to a sample, ms-scale normally: a stalled agent, not a slow one. */
    static final Duration ANSWER = Duration.ofSeconds(15);
    /** Longest wait for a launch beyond the readiness timeout: the agent's build may take 10 minutes. */
    static final Duration BUILD = Duration.ofMinutes(11);

    /**
     * What the agent said of the subject.
     *
     * @param window  the last window's figures as sampled on the subject's host (after {@link #windowEnded})
     * @param logTail the last lines of its output once it ended; empty while it runs
     */
    public record State(boolean alive, Optional<Integer> exitCode, ServerSampler.Window window, String logTail) {}

    private final AgentLink link;
    private final Message.Launched launched;

    private RemoteSubject(AgentLink link, Message.Launched launched) {
        this.link = link;
        this.launched = launched;
    }

    /**
     * Asks the agent at {@code h} to build and start {@code subject} and waits until it is ready there.
     *
     * @param certificate  for a TLS variant, the server certificate and key to send (PEM files here); the
     *                     agent writes them into the subject's scratch folder and deletes them when it stops
     * @param readyTimeout the longest it may take to answer once started
     * @throws AgentException   when the agent cannot be reached, speaks another version, or refuses
     *                          (started without {@code --allow-subjects}, busy, no such subject there)
     * @throws SubjectException when the certificate cannot be read, the subject fails to build, start or
     *                          become ready there, the agent is lost meanwhile, or this thread is interrupted
     */
    public static RemoteSubject start(SubjectHost h, String subject, Map<String, String> variant,
                                      Optional<ThrowawayCa.ServerFiles> certificate, Duration readyTimeout) {
        Optional<Message.Pem> pem = certificate.map(RemoteSubject::pem);
        String session = UUID.randomUUID().toString();
        AgentLink link = AgentLink.connect(0, h.address(), Secret.read(h.secretFile()), session, CONNECT);
        Message m;
        try {
            link.clock(1, ANSWER); // checks the agent's version: an older one would drop the certificate
            link.send(new Message.Launch(session, Cluster.REPLIES + session, link.clientUuid(), subject, variant,
                    readyTimeout.toMillis(), pem));
            m = link.take(BUILD.plus(readyTimeout));
        } catch (RuntimeException e) { // AgentException, or the client's own when the agent went
            closeKeepingInterrupt(link);
            throw new SubjectException("subject '" + subject + "' on " + h.address() + ": " + e.getMessage(), e);
        }
        if (m instanceof Message.Launched l) {
            return new RemoteSubject(link, l);
        }
        closeKeepingInterrupt(link);
        if (m instanceof Message.Refused r) {
            throw new AgentException(r.error());
        }
        if (m instanceof Message.Unready u) {
            throw new SubjectException(u.error());
        }
        throw new AgentException("agent " + h.address() + " answered a launch with " + m);
    }

    private static Message.Pem pem(ThrowawayCa.ServerFiles f) {
        try {
            return new Message.Pem(Files.readString(f.cert(), StandardCharsets.US_ASCII),
                    Files.readString(f.key(), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new SubjectException("cannot read the throw-away server certificate " + f.cert() + " or its key: "
                    + e.getMessage(), e);
        }
    }

    private static void closeKeepingInterrupt(AgentLink link) {
        boolean interrupted = Thread.interrupted();
        link.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The agent it runs under. */
    public HostPort agent() {
        return link.address;
    }

    /** The address the load reaches it at: the agent's listen host. */
    public String host() {
        return launched.host();
    }

    public int port() {
        return launched.port();
    }

    /** Its root process's pid on the subject host. */
    public long pid() {
        return launched.pid();
    }

    /**
     * The window starts: the agent resets the subject's peak RSS and reads its CPU.
     *
     * @throws AgentException when the agent does not answer or is lost
     */
    public void windowStarted() {
        ask(Message.Sample.START);
    }

    /**
     * The window ended: its figures, read on the subject's host.
     *
     * @throws AgentException when the agent does not answer or is lost
     */
    public State windowEnded() {
        return ask(Message.Sample.END);
    }

    /**
     * Whether it runs, as the agent sees it now.
     *
     * @throws AgentException when the agent does not answer or is lost
     */
    public State state() {
        return ask(Message.Sample.CHECK);
    }

    private State ask(String what) {
        send(new Message.Sample(link.session(), what));
        Message m = link.take(ANSWER);
        if (!(m instanceof Message.Sampled s)) {
            throw new AgentException("agent " + link.address + " answered a sample with " + m);
        }
        return new State(s.alive(), s.exitCode(), s.window(), s.logTail());
    }

    /**
     * Asks the agent to stop the subject and waits until it has; then leaves. When the agent does not
     * answer, leaving is the stop: it stops what a departed coordinator started.
     */
    @Override
    public void close() {
        try {
            send(new Message.Halt(link.session()));
            link.take(ANSWER.plus(ANSWER));
        } catch (AgentException e) {
            // The agent stops the subject when this connection closes, below.
        } finally {
            closeKeepingInterrupt(link);
        }
    }

    private void send(Message.Order m) {
        try {
            link.send(m);
        } catch (AgentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AgentException("agent " + link.address + " was lost: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "subject on " + link.address + " at " + host() + ":" + port() + " (pid " + pid() + ")";
    }
}
