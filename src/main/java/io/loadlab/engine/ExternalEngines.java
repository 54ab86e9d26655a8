package io.loadlab.engine;

import io.loadlab.importer.ImportException;
import io.loadlab.importer.Importers;
import io.loadlab.load.RequestTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/**
 * Runs wrk, h2load or oha as a separate process, pinned with {@code taskset}, and reads its output
 * back with the importers. The workload's method, body and path substitutions are carried over:
 * wrk gets a Lua script ({@code math.random} per request, as the built-in engine draws keys);
 * h2load gets a body file and a URI file holding every key once in a seeded shuffled order,
 * which each connection walks from the start (h2load cannot draw keys at random); oha gets the
 * same files ({@code -D}, {@code --urls-from-file}) and picks a URL at random per request.
 *
 * <p>The tool's CPU time is the JVM's reaped-children CPU ({@code cutime + cstime} in
 * {@code /proc/self/stat}) before and after the run: {@code setpriv} and {@code taskset} replace
 * themselves with the tool, so the child is the tool. With {@code setpriv} (util-linux) the tool
 * gets SIGKILL when the JVM dies, even by {@code kill -9}. Not thread-safe across concurrent runs
 * in one JVM.
 */
public final class ExternalEngines {

    /** How long after its duration a tool may take to print and exit before it is killed. */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(30);

    /** Whether util-linux's {@code setpriv} is there to tie the tool's life to this JVM's. */
    private static final boolean PDEATHSIG = io.loadlab.host.Executables.onPath("setpriv");

    private ExternalEngines() {
    }

    /**
     * Runs the tool for {@code load.duration()} and reads what it printed.
     *
     * @param scratch a folder for the Lua script, body and URI files (created when missing)
     * @param output  the file the tool's output goes to (kept: the run can be imported again)
     * @param started called just before the tool starts (start of the server CPU window)
     * @param ended   called just after it exits
     * @throws EngineException when the tool cannot start, fails, takes far longer than its
     *                         duration, prints something unreadable, or the thread is interrupted
     *                         (the tool is then killed first; the interrupt flag stays set)
     */
    public static ExternalRun run(ExternalLoad load, Path scratch, Path output, Runnable started, Runnable ended) {
        load.engine().cannotRun(load.path(), List.of(load.duration())).ifPresent(why -> {
            throw new EngineException(why);
        });
        List<String> command;
        try {
            Files.createDirectories(scratch);
            Files.createDirectories(output.toAbsolutePath().getParent());
            command = command(load, scratch);
        } catch (IOException e) {
            throw new EngineException("cannot write the " + load.engine().label() + " input files to " + scratch
                    + ": " + e.getMessage(), e);
        }
        double cpuBefore = childCpuSeconds();
        Process p;
        started.run();
        long t0 = System.nanoTime();
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        } catch (IOException e) {
            throw new EngineException("cannot start " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        try {
            if (!p.waitFor(load.duration().plus(EXIT_GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
                kill(p);
                throw new EngineException(load.engine().label() + " ran for more than " + load.duration().plus(EXIT_GRACE)
                        .toSeconds() + " s for a " + load.duration().toMillis() + " ms run and was killed; its output"
                        + " is in " + output);
            }
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            throw new EngineException(load.engine().label() + " stopped: interrupted", e);
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        ended.run();
        double cpu = childCpuSeconds() - cpuBefore;
        String text;
        try {
            text = Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EngineException("cannot read " + load.engine().label() + "'s output " + output + ": "
                    + e.getMessage(), e);
        }
        if (p.exitValue() != 0) {
            throw new EngineException(load.engine().label() + " exited with status " + p.exitValue() + ": "
                    + String.join(" | ", io.loadlab.subject.LogTail.lastLines(text, 5)));
        }
        try {
            return new ExternalRun(Importers.parse(load.tool().tool(), text), cpu, wall, command, output);
        } catch (ImportException e) {
            throw new EngineException("cannot read " + load.engine().label() + "'s output (kept in " + output + "): "
                    + e.getMessage(), e);
        }
    }

    /** The command line, with the input files it needs written to {@code scratch}. */
    static List<String> command(ExternalLoad load, Path scratch) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (PDEATHSIG) {
            // The tool is killed when the thread that started it (which waits for it) goes, so a
            // harness killed with -9 leaves no tool running; setpriv and taskset exec in place.
            cmd.addAll(List.of("setpriv", "--pdeathsig", "KILL"));
        }
        load.cpus().ifPresent(c -> cmd.addAll(List.of("taskset", "-c", c)));
        cmd.add(load.tool().executable().toString());
        load.tool().arguments().append(load, scratch, cmd);
        return cmd;
    }

    /** wrk: HTTP/1.1 over {@code http://} or {@code https://}; it verifies no certificate. */
    static void wrk(ExternalLoad load, Path scratch, List<String> cmd) throws IOException {
        cmd.addAll(List.of("-t", Integer.toString(load.threads()), "-c", Integer.toString(load.connections()),
                "-d", load.duration().toSeconds() + "s", "--latency"));
        Optional<String> script = WrkScript.of(load);
        if (script.isPresent()) {
            Path lua = scratch.resolve("request.lua");
            Files.writeString(lua, script.get(), StandardCharsets.UTF_8);
            cmd.addAll(List.of("-s", lua.toString()));
        }
        cmd.add(load.url() + literalPath(load.path()));
    }

    /**
     * h2load: {@code --h1} for HTTP/1.1 (over TCP or TLS); for h2 over TLS its default ALPN list (h2 first,
     * the protocol it got is in its output); for an {@code http://} URL without {@code --h1}, h2c with
     * prior knowledge. {@code -m} is the streams per connection. It verifies no certificate.
     */
    static void h2load(ExternalLoad load, Path scratch, List<String> cmd) throws IOException {
        if (!load.wire().protocol().isHttp2()) {
            cmd.add("--h1");
        }
        cmd.addAll(List.of("-t", Integer.toString(load.threads()), "-c",
                Integer.toString(load.connections()), "-D", load.duration().toMillis() + "ms"));
        if (load.wire().protocol().isHttp2()) {
            cmd.addAll(List.of("-m", Integer.toString(load.wire().streams())));
        }
        if (sendsBody(load)) {
            cmd.addAll(List.of("-d", bodyFile(load, scratch).toString()));
        }
        if (!load.method().equals(sendsBody(load) ? "POST" : "GET")) {
            cmd.addAll(List.of("-H", ":method: " + load.method()));
        }
        cmd.addAll(target(load, scratch, "-i"));
    }

    /**
     * oha without its terminal UI, its JSON summary on stdout, the runtime's worker threads set
     * (oha's default is one per physical core, whatever the pinning). At a fixed rate,
     * {@code -q} with {@code --latency-correction}, so that latency counts from the intended send
     * time as the built-in engine's does. Over TLS it verifies the certificate against the system store
     * and {@code --cacert}; {@code --http2} (ALPN h2 over TLS, prior knowledge over TCP) with {@code -p}
     * streams per connection.
     */
    static void oha(ExternalLoad load, Path scratch, List<String> cmd) throws IOException {
        cmd.addAll(List.of("--no-tui", "--output-format", "json", "-z", load.duration().toMillis() + "ms",
                "-c", Integer.toString(load.connections()), "--worker-threads", Integer.toString(load.threads()),
                "-m", load.method()));
        ToolProtocol w = load.wire();
        if (w.protocol().isHttp2()) {
            cmd.addAll(List.of("--http2", "-p", Integer.toString(w.streams())));
        }
        if (w.tls()) {
            w.caCert().ifPresent(ca -> cmd.addAll(List.of("--cacert", ca.toString())));
            if (w.insecure()) {
                cmd.add("--insecure");
            }
        }
        if (sendsBody(load)) {
            cmd.addAll(List.of("-D", bodyFile(load, scratch).toString()));
        }
        load.rate().ifPresent(r -> cmd.addAll(List.of("-q", java.math.BigDecimal.valueOf(r).stripTrailingZeros()
                .toPlainString(), "--latency-correction")));
        cmd.addAll(target(load, scratch, "--urls-from-file"));
    }

    private static Path bodyFile(ExternalLoad load, Path scratch) throws IOException {
        Path body = scratch.resolve("body.bin");
        Files.write(body, body(load.bodySize()));
        return body;
    }

    /**
     * The URL, or for a path with {@code {rand:LO-HI}} the file flag and a file holding every key's
     * URL (h2load walks it in order from each connection's start; oha picks one at random per request).
     */
    private static List<String> target(ExternalLoad load, Path scratch, String fileFlag) throws IOException {
        Matcher m = RequestTemplate.SUBSTITUTION.matcher(load.path());
        if (!m.find()) {
            return List.of(load.url() + load.path());
        }
        Path uris = scratch.resolve("uris.txt");
        Files.write(uris, uris(load, m), StandardCharsets.UTF_8);
        return List.of(fileFlag, uris.toString());
    }

    private static boolean sendsBody(ExternalLoad load) {
        return load.bodySize() > 0;
    }

    /** The built-in engine's body: a, b, c, ... z, a, ... */
    static byte[] body(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** Every key of the one {rand:LO-HI} in the path, shuffled with the load's seed. */
    private static List<String> uris(ExternalLoad load, Matcher m) {
        long lo = Long.parseLong(m.group(2));
        long hi = Long.parseLong(m.group(3));
        List<String> out = new ArrayList<>();
        String before = load.path().substring(0, m.start());
        String after = load.path().substring(m.end());
        for (long k = lo; k <= hi; k++) {
            out.add(load.url() + before + k + after);
        }
        Collections.shuffle(out, new Random(load.seed()));
        return out;
    }

    /** The path with the substitutions of its first request (for wrk's command line, which needs one). */
    private static String literalPath(String path) {
        return RequestTemplate.SUBSTITUTION.matcher(path).replaceAll(r -> r.group(1).equals("seq") ? "0" : r.group(2));
    }

    /** SIGTERM, then SIGKILL after 2 s: the tool prints nothing useful after being stopped anyway. */
    private static void kill(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(2, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** CPU time of this JVM's children that have been waited for, s; NaN without /proc. */
    static double childCpuSeconds() {
        return io.loadlab.host.ProcFs.cpuTicks("self").map(t -> (t[2] + t[3]) / io.loadlab.host.ProcFs.TICKS_PER_SECOND)
                .orElse(Double.NaN);
    }
}
