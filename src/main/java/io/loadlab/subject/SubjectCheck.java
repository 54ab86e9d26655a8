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
     * @param work a fresh folder for the subject's files, its log and the CA
     * @throws SubjectException when the subject cannot be built, started or made ready
     * @throws IOException      when the check cannot connect (h2c) or a folder cannot be made
     */
    public static Outcome run(SubjectLauncher launcher, Subject s, Map<String, String> variant, Path work)
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
        try (SubjectProcess p = l.start(m, variant, port, Optional.empty(), work.resolve("work"),
                work.resolve("subject.log"))) {
            p.awaitReady("127.0.0.1", port, m.ready().path(), m.ready().timeout(), served.tls());
            try (ContractCheck check = new ContractCheck(served, port, caCert)) {
                return new Outcome(check.run(new HashSet<>(m.workloads())), p.handle());
            }
        }
    }
}
