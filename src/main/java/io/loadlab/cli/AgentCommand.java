package io.loadlab.cli;

import io.loadlab.agent.Agent;
import io.loadlab.agent.HostPort;
import io.loadlab.agent.Secret;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code loadlab agent}: a load host's long-running agent, until stopped. */
@Command(name = "agent", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Run a load agent on this host until stopped (Ctrl-C, SIGTERM).",
                "",
                "Coordinators (loadlab load|run --agents HOST:PORT,...) connect to it and give it a share of a run's",
                "load; it runs the built-in engine, sends its per-second histograms, and stops loading when the",
                "coordinator disconnects or the run's time is up. It binds --listen only; a coordinator or",
                "cluster member without the same secret is refused, and the refusal logged. With --allow-subjects",
                "it also builds, starts, samples and stops the subjects of loadlab run --subject-host HOST:PORT;",
                "a coordinator that goes away has its subject stopped."},
        footer = {"", "Example:",
                "  (umask 077; head -c 32 /dev/urandom | base64 > ~/.loadlab-secret)   # the same file on every host",
                "  loadlab agent --listen 10.0.0.2:5701 --secret-file ~/.loadlab-secret",
                "  loadlab agent --listen 10.0.0.9:5701 --secret-file ~/.loadlab-secret --allow-subjects",
                "", "Exit codes: 0 stopped, 2 a usage error (bad address, secret file, port taken)."})
final class AgentCommand implements Callable<Integer> {

    @Option(names = "--listen", required = true, paramLabel = "HOST:PORT",
            description = "the only address the agent binds (this host's IP on the load network)")
    String listen;

    @Option(names = "--secret-file", required = true, paramLabel = "FILE",
            description = "file with the secret shared by the agents and coordinators (16 characters or more)")
    Path secretFile;

    @Option(names = "--allow-subjects",
            description = {"let coordinators (loadlab run --subject-host) have subjects built and",
                    "started from this checkout's subjects/, one at a time, which runs code:",
                    "without it such requests are refused. Subjects listen on this host's",
                    "interfaces; their CPU and peak RSS are sampled here. A TLS variant's",
                    "certificate and key come from the coordinator (over the unencrypted link)",
                    "and are kept in target/agent-subjects until the subject stops"})
    boolean allowSubjects;

    @Option(names = "--hlog-dir", paramLabel = "DIR",
            description = "keep each run's own per-second histograms here (run-SESSION.hlog)")
    Path hlogDir;

    @Override
    public Integer call() throws InterruptedException {
        HostPort address = HostPort.parse(listen);
        Secret secret = Secret.read(secretFile);
        if (hlogDir != null && !Files.isDirectory(hlogDir)) {
            throw new CliException("--hlog-dir " + hlogDir + " is not a folder", Main.EXIT_USAGE);
        }
        PrintStream log = new PrintStream(System.err, true, StandardCharsets.UTF_8);
        Agent agent = Agent.start(address, secret, log, Optional.ofNullable(hlogDir),
                allowSubjects ? Optional.of(Home.path()) : Optional.empty());
        Thread serving = Thread.currentThread();
        Thread hook = new Thread(() -> {
            agent.close();
            serving.interrupt();
        }, "loadlab-agent-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        agent.serve();
        return 0;
    }
}
