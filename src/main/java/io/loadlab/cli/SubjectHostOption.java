package io.loadlab.cli;

import io.loadlab.agent.HostPort;
import io.loadlab.agent.SubjectHost;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code run --subject-host}: the subjects on another host, started there by its agent. */
final class SubjectHostOption {

    @Option(names = "--subject-host", paramLabel = "HOST:PORT",
            description = {"run the subjects on this agent's host (loadlab agent --allow-subjects):",
                    "it builds and starts each from its own checkout, listening at HOST, and",
                    "samples its CPU and peak RSS there; needs --secret-file. A TLS variant's",
                    "throw-away certificate and key (made here, per experiment) are sent to",
                    "it over the agent link, which is authenticated but not encrypted"})
    String subjectHost;

    /** The subject host given, or empty; it takes the agents' {@code --secret-file}. */
    Optional<SubjectHost> of(Path secretFile) {
        if (subjectHost == null) {
            return Optional.empty();
        }
        if (secretFile == null) {
            throw new CliException("--subject-host needs --secret-file, the file its agent was started with",
                    Main.EXIT_USAGE);
        }
        return Optional.of(new SubjectHost(HostPort.parse(subjectHost), secretFile));
    }

    boolean given() {
        return subjectHost != null;
    }
}
