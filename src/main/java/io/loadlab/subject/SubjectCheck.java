package io.loadlab.subject;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One subject in one variant started, checked against the contract in its protocol, and stopped by
 * pid: what {@code loadlab subjects --check} and the contract test do for every variant. A TLS variant
 * gets a throw-away CA and certificate of its own in the work folder.
 */
public final class SubjectCheck {

    /**
     * What the check found.
     *
     * @param results one per check; all passed when every problem is empty
     * @param root    the subject's root process (stopped by now)
     */
    public record Outcome(List<ContractCheck.Result> results, ProcessHandle root) {
        public Outcome {
            results = List.copyOf(results);
        }
    }

    private SubjectCheck() {
    }

    /**
     * A subject started in one variant and ready to answer. Closing it stops the subject by pid.
     *
     * @param process the subject's process
     * @param port    where it listens on 127.0.0.1
     * @param caCert  the throw-away CA that signed its certificate, for the TLS variants
     */
    public record Started(SubjectProcess process, int port, Optional<Path> caCert) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    /**
     * @param work a fresh folder for the subject's files, its log and the CA
     * @throws SubjectException when the subject cannot be built, started or made ready
     * @throws IOException      when the check cannot connect (h2c) or a folder cannot be made
     */
    public static Outcome run(SubjectLauncher launcher, Subject s, Map<String, String> variant, Path work)
            throws IOException {
        try (Started st = start(launcher, s, variant, work);
             ContractCheck check = new ContractCheck(ServedProtocol.of(variant), st.port(), st.caCert())) {
            return new Outcome(check.run(new HashSet<>(s.manifest().workloads())), st.process().handle());
        }
    }

    /**
     * Starts the subject in {@code variant} on a free port (a TLS variant with a certificate from a CA
     * made in {@code work/ca}) and waits until it is ready, as {@link #run} does before checking it.
     *
     * @param work a fresh folder for the subject's files, its log and the CA
     * @throws SubjectException when the subject cannot be built, started or made ready (it is stopped then)
     * @throws IOException      when no free port can be found
     */
    public static Started start(SubjectLauncher launcher, Subject s, Map<String, String> variant, Path work)
            throws IOException {
        ServedProtocol served = ServedProtocol.of(variant);
        SubjectLauncher l = launcher;
        Optional<Path> caCert = Optional.empty();
        if (served.tls()) {
            ThrowawayCa ca = ThrowawayCa.create(work.resolve("ca"));
            l = launcher.withCertificate(ca.issue("server"));
            caCert = Optional.of(ca.caCert());
        }
        int port = SubjectProcess.freePort();
        SubjectManifest m = s.manifest();
        SubjectProcess p = l.start(m, variant, port, Optional.empty(), work.resolve("work"), work.resolve("subject.log"));
        try {
            p.awaitReady("127.0.0.1", port, m.ready().path(), m.ready().timeout(), served.tls());
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
        return new Started(p, port, caCert);
    }
}
