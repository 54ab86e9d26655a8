package io.loadlab.cli;

import io.loadlab.load.Durations;
import io.loadlab.load.LoadEngine;
import io.loadlab.experiment.ServerSampler;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.format.TextSummary;
import io.loadlab.subject.Cpus;
import io.loadlab.subject.ProcessTreeStats;
import io.loadlab.subject.SubjectProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code loadlab demo}: starts the bundled java-netty subject pinned to its own CPU, loads it
 * with the built-in engine on the other CPUs, and prints each run and a table with the server's
 * CPU use. Until the experiment runner exists this is the project's main job.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Load the bundled java-netty subject with the built-in engine and print a summary.",
                "",
                "Starts the subject pinned to CPU 0, loads /plaintext and /json from the other CPUs, prints",
                "each run, a table with requests per server and per load CPU-second, and stops the subject."})
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Option(names = {"-d", "--duration"}, paramLabel = "D", description = "measured duration per run (default: ${DEFAULT-VALUE})")
    String duration = "5s";

    @Option(names = "--warmup", paramLabel = "D", description = "warm-up per run (default: ${DEFAULT-VALUE})")
    String warmup = "2s";

    @Option(names = {"-c", "--connections"}, paramLabel = "N", description = "connections (default: ${DEFAULT-VALUE})")
    int connections = 64;

    @Option(names = "--out", paramLabel = "DIR", description = "folder for the subject's log (default: ${DEFAULT-VALUE})")
    Path out = Path.of("data", "tmp", "demo");

    @Override
    public Integer call() throws IOException {
        PrintWriter w = commandSpec.commandLine().getOut();
        Path home = Path.of(System.getProperty("loadlab.home", ".")).toAbsolutePath().normalize();
        Path source = home.resolve("subjects/java-netty/NettyServer.java");
        if (!Files.isRegularFile(source)) {
            throw new CliException("cannot find " + source + ": run the demo from the Loadlab folder or through ./loadlab",
                    Main.EXIT_USAGE);
        }
        Files.createDirectories(out);
        Optional<Cpus.Split> split = Cpus.defaultSplit();
        if (split.isPresent()) {
            Cpus.pinThisProcess(split.get().load());
            w.printf(Locale.ROOT, "Pinning: server on CPU %s, load engine on CPU %s%n", split.get().server(), split.get().load());
        } else {
            w.println("Pinning: none (one CPU or no taskset): server and engine share the CPUs; CPU figures are less clean.");
        }
        int port = freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = home.resolve("target/lib").toString() + "/*";
        int serverThreads = split.map(Cpus.Split::serverCount).orElse(Runtime.getRuntime().availableProcessors());
        List<String> command = List.of(java, "-cp", classpath, source.toString(),
                "--port", Integer.toString(port), "--threads", Integer.toString(serverThreads));
        Path log = out.resolve("java-netty.log");
        Files.deleteIfExists(log);
        List<String[]> rows = new ArrayList<>();
        try (SubjectProcess server = SubjectProcess.start("java-netty", command, home, log,
                split.map(Cpus.Split::server))) {
            w.printf(Locale.ROOT, "Started java-netty (pid %d) on port %d; waiting for it to answer...%n",
                    server.handle().pid(), port);
            w.flush();
            server.awaitReady("127.0.0.1", port, "/plaintext", Duration.ofSeconds(60));
            for (String path : List.of("/plaintext", "/json")) {
                LoadSpec spec = LoadSpec.builder()
                        .url("http://127.0.0.1:" + port + path)
                        .connections(connections)
                        .threads(split.map(Cpus.Split::loadCount).orElse(1))
                        .duration(Durations.parse(duration))
                        .warmup(Durations.parse(warmup))
                        .build();
                w.println();
                w.print(TextSummary.header(spec));
                w.flush();
                ServerSampler cpu = new ServerSampler(server.handle());
                LoadResult r = LoadEngine.run(spec, cpu);
                w.println(TextSummary.format(r));
                double serverCpu = cpu.window().map(ProcessTreeStats.Reading::cpuSeconds).orElse(Double.NaN);
                rows.add(new String[] {path,
                        String.format(Locale.ROOT, "%,.0f", r.rps()),
                        String.format(Locale.ROOT, "%.0f", r.latencyAt(50) / 1.0),
                        String.format(Locale.ROOT, "%.0f", r.latencyAt(99) / 1.0),
                        Double.isNaN(serverCpu) ? "" : String.format(Locale.ROOT, "%.2f", serverCpu),
                        serverCpu > 0 ? String.format(Locale.ROOT, "%,.0f", r.requests() / serverCpu) : "",
                        String.format(Locale.ROOT, "%.2f", r.loadCpuSeconds()),
                        String.format(Locale.ROOT, "%,.0f", r.rpsPerLoadCpuSecond()),
                        r.loadBound() ? "yes" : "no",
                        Long.toString(r.errors().total())});
            }
        }
        w.println();
        w.println("Summary (java-netty, built-in engine; latency in microseconds)");
        TextTable.print(w, new String[] {"workload", "rps", "p50_us", "p99_us", "server_cpu_s", "rps/server_cpu_s",
                "load_cpu_s", "rps/load_cpu_s", "load_bound", "errors"}, rows, 1);
        w.println();
        w.println("Subject log: " + log);
        w.flush();
        return 0;
    }

    static int freePort() throws IOException {
        return io.loadlab.subject.SubjectProcess.freePort();
    }
}
