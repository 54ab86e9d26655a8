package io.loadlab.agent;

import io.loadlab.subject.LogTail;
import io.loadlab.subject.ServedProtocol;
import io.loadlab.subject.ServerSampler;
import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.SubjectLauncher;
import io.loadlab.subject.SubjectProcess;
import io.loadlab.subject.Subjects;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An agent's remote subjects ({@code --allow-subjects}): builds and starts a subject from the agent's
 * own checkout with {@link SubjectLauncher} (unpinned, listening on every interface of this host, probed
 * for readiness at the agent's listen host, over TLS for a TLS variant, whose certificate and key came
 * with the launch and are deleted when it stops), samples its window with {@link ServerSampler} over this
 * whole machine, and stops it by pid and process group on {@link Message.Halt}, when its coordinator's
 * client disconnects, or when the agent stops. One subject at a time: two on one host would measure
 * each other. Without {@code --allow-subjects} every launch is refused in one line. Launches, samples
 * and stops run in order on one thread of their own, so that load orders are never held up by a build.
 */
final class SubjectService implements AutoCloseable {

    /** One coordinator's subject: guarded by the service's lock, except what only the worker touches. */
    private static final class Hosted {
        final String session;
        final String client;
        final Replies replies;
        final Path log;
        final Path work;
        /** Where a TLS variant's certificate and key are written, deleted when the subject stops. */
        final Path tls;
        Future<?> launching;
        SubjectProcess process;
        boolean gone;
        /** The window being sampled; the worker's alone. */
        ServerSampler sampler;

        /**
         * @throws AgentException when the session is not a UUID or a path would leave {@code scratch}
         *                        (a failed start deletes {@link #work} and {@link #tls})
         */
        Hosted(Message.Launch l, Replies replies, Path scratch) {
            this.session = OrderCheck.session(l.session());
            this.client = l.client();
            this.replies = replies;
            this.log = OrderCheck.under(scratch, Subject.pathSegment(l.subject() + "-" + session) + ".log");
            this.work = OrderCheck.under(scratch, "work-" + session);
            this.tls = OrderCheck.under(scratch, "tls-" + session);
        }
    }

    private final HostPort listen;
    private final Optional<Path> home;
    private final Function<String, Optional<Replies>> replies;
    private final Consumer<String> say;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "loadlab-agent-subjects");
        t.setDaemon(true);
        return t;
    });
    private final Object lock = new Object();
    private Hosted current;

    /**
     * @param home    the checkout whose {@code subjects/} it starts ({@code --allow-subjects}); empty: it refuses
     * @param replies a proven session's sealed replies, empty for any other session
     */
    SubjectService(HostPort listen, Optional<Path> home, Function<String, Optional<Replies>> replies,
                   Consumer<String> say) {
        this.listen = listen;
        this.home = home.map(h -> h.toAbsolutePath().normalize());
        this.replies = replies;
        this.say = say;
    }

    /** Takes a {@link Message.Launch}, {@link Message.Sample} or {@link Message.Halt}; false for any other order. */
    boolean handle(Message.Order m) {
        if (m instanceof Message.Launch l) {
            launch(l);
        } else if (m instanceof Message.Sample s) {
            onWorker(s.session(), h -> sample(h, s.what()));
        } else if (m instanceof Message.Halt h) {
            onWorker(h.session(), x -> halt(x, true));
        } else {
            return false;
        }
        return true;
    }

    private void launch(Message.Launch l) {
        Replies replies = this.replies.apply(l.session()).orElseThrow(() -> new AgentException("session "
                + l.session() + " ended: its coordinator disconnected"));
        Optional<Subject> subject = home.flatMap(h -> Subjects.load(h.resolve("subjects"), Workload.builtinNames())
                .byName(l.subject()));
        Optional<Hosted> hosted = Optional.empty();
        String refusal = refusal(l, subject);
        if (refusal == null) {
            try {
                hosted = Optional.of(new Hosted(l, replies, home.orElseThrow().resolve("target/agent-subjects")));
            } catch (AgentException e) {
                refusal = e.getMessage();
            }
        }
        synchronized (lock) {
            if (refusal == null && current != null) {
                refusal = "agent " + listen + " is busy with another coordinator's subject (session " + current.session
                        + "): wait for it to end";
            }
            if (refusal == null) {
                Hosted h = hosted.orElseThrow();
                current = h;
                Subject s = subject.orElseThrow();
                h.launching = worker.submit(() -> start(h, s, l));
                return;
            }
        }
        replies.send(new Message.Refused(refusal));
        say.accept("refused subject " + OrderCheck.printable(l.subject()) + ": " + refusal);
    }

    /**
     * Why a launch is refused before anything starts, or null: no {@code --allow-subjects}, no such
     * subject here, a subject this host cannot run, or a variant name or value its manifest does not
     * declare (variant values reach its start command).
     */
    private String refusal(Message.Launch l, Optional<Subject> subject) {
        if (home.isEmpty()) {
            return "agent " + listen + " does not start subjects: it was started without --allow-subjects"
                    + " (starting a subject runs code from its checkout)";
        }
        if (subject.isEmpty()) {
            return "agent " + listen + " has no subject '" + OrderCheck.printable(l.subject()) + "' in "
                    + home.get().resolve("subjects");
        }
        Optional<String> unavailable = subject.get().unavailableReason();
        if (unavailable.isPresent()) {
            return "subject '" + l.subject() + "' cannot run on agent " + listen + ": " + unavailable.get();
        }
        try {
            OrderCheck.variant(subject.get().manifest(), l.variant());
        } catch (AgentException e) {
            return e.getMessage() + " (agent " + listen + ")";
        }
        return null;
    }

    /**
     * On the worker: builds, starts and waits for the subject (over TLS for a TLS variant, with the
     * certificate the launch carried); the answer goes to the coordinator.
     */
    private void start(Hosted h, Subject s, Message.Launch l) {
        try {
            Files.createDirectories(h.log.getParent());
            int port = SubjectProcess.freePort();
            SubjectLauncher launcher = new SubjectLauncher(home.orElseThrow());
            if (l.certificate().isPresent()) {
                launcher = launcher.withCertificate(ScratchCertificate.write(h.tls, l.certificate().get()));
            }
            SubjectProcess p = launcher.start(s.manifest(), l.variant(), port, Optional.empty(), h.work, h.log);
            synchronized (lock) {
                h.process = p;
            }
            p.awaitReady(listen.host(), port, s.manifest().ready().path(), Duration.ofMillis(l.readyTimeoutMs()),
                    ServedProtocol.of(l.variant()).tls());
            if (stillWanted(h)) {
                h.replies.send(new Message.Launched(listen.host(), port, p.handle().pid()));
                say.accept("subject " + s.name() + " started for session " + h.session + ": pid " + p.handle().pid()
                        + " on " + listen.host() + ":" + port + ", log " + h.log
                        + (l.certificate().isPresent() ? ", certificate in " + h.tls : ""));
            }
        } catch (SubjectException | IOException e) {
            say.accept("subject " + s.name() + " did not start for session " + h.session + ": " + e.getMessage()
                    .lines().findFirst().orElse(""));
            halt(h, false);
            if (stillWanted(h)) {
                h.replies.send(new Message.Unready("on agent " + listen + ": " + e.getMessage()));
            }
        }
    }

    private boolean stillWanted(Hosted h) {
        synchronized (lock) {
            return !h.gone;
        }
    }

    /** On the worker: a window's start or end, or only the state. */
    private void sample(Hosted h, String what) {
        SubjectProcess p;
        synchronized (lock) {
            p = h.process;
        }
        ServerSampler.Window w = ServerSampler.Window.NONE;
        if (p != null && Message.Sample.START.equals(what)) {
            h.sampler = new ServerSampler(p.handle(), List.of());
            h.sampler.windowStarted();
        } else if (p != null && Message.Sample.END.equals(what) && h.sampler != null) {
            h.sampler.windowEnded();
            w = h.sampler.reading();
            h.sampler = null;
            w.server().ifPresent(r -> say.accept(String.format(java.util.Locale.ROOT,
                    "window of session %s: server CPU %.3f s user, %.3f s sys, peak RSS %d bytes", h.session,
                    r.userSeconds(), r.systemSeconds(), r.peakRssBytes())));
        }
        boolean alive = p != null && p.isAlive();
        h.replies.send(new Message.Sampled(alive, p == null ? Optional.empty() : p.exitCode(), w,
                alive ? "" : LogTail.of(h.log, 20)));
    }

    /** On the worker: stops the subject (SIGTERM, then SIGKILL after its grace), answering when asked to. */
    private void halt(Hosted h, boolean answer) {
        SubjectProcess p;
        synchronized (lock) {
            p = h.process;
            h.process = null;
            if (current == h) {
                current = null;
            }
        }
        long pid = p == null ? -1 : p.handle().pid();
        if (p != null) {
            p.close();
            say.accept("subject of session " + h.session + " stopped (pid " + pid + ")");
        }
        deleteQuietly(h.work);
        ScratchCertificate.delete(h.tls).ifPresent(say);
        if (answer && stillWanted(h)) {
            h.replies.send(new Message.Halted(pid));
        }
    }

    /** Runs {@code action} on the worker for the session's subject; a session without one is told so. */
    private void onWorker(String session, Consumer<Hosted> action) {
        Hosted h;
        synchronized (lock) {
            h = current != null && current.session.equals(session) ? current : null;
        }
        if (h == null) {
            replies.apply(session).ifPresent(r -> r.send(new Message.Sampled(false, Optional.empty(),
                    ServerSampler.Window.NONE, "(agent " + listen + " has no subject for this session)")));
            return;
        }
        worker.submit(() -> action.accept(h));
    }

    /** The coordinator whose client this was went away: its subject is stopped, a launch cut short. */
    void coordinatorGone(String client) {
        Hosted h;
        synchronized (lock) {
            h = current != null && current.client.equals(client) ? current : null;
            if (h == null) {
                return;
            }
            h.gone = true;
        }
        say.accept("coordinator of session " + h.session + " went away: stopping its subject");
        h.launching.cancel(true);
        worker.submit(() -> halt(h, false));
    }

    /** Stops any subject, waiting up to 30 s for it. */
    @Override
    public void close() {
        Hosted h;
        synchronized (lock) {
            h = current;
            if (h != null) {
                h.gone = true;
            }
        }
        if (h != null) {
            h.launching.cancel(true);
            worker.submit(() -> halt(h, false));
        }
        worker.shutdown();
        try {
            worker.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException | RuntimeException e) {
            // A leftover scratch folder is harmless; the next session uses a fresh one.
        }
    }
}
