package io.loadlab.engine;

import io.loadlab.importer.ImportException;
import io.loadlab.importer.Importers;
import io.loadlab.importer.Tool;
import io.loadlab.load.RequestTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/**
 * Runs wrk or h2load as a separate process, pinned with {@code taskset}, and reads its output
 * back with the importers. The workload's method, body and path substitutions are carried over:
 * wrk gets a Lua script ({@code math.random} per request, as the built-in engine draws keys);
 * h2load gets a body file and a URI file holding every key once in a seeded shuffled order,
 * which each connection walks from the start (h2load cannot draw keys at random).
 *
 * <p>The tool's CPU time is the JVM's reaped-children CPU ({@code cutime + cstime} in
 * {@code /proc/self/stat}) before and after the run: {@code setpriv} and {@code taskset} replace
 * themselves with the tool, so the child is the tool. With {@code setpriv} (util-linux) the tool
 * gets SIGKILL when the JVM dies, even by {@code kill -9}. Not thread-safe across concurrent runs
 * in one JVM.
 */
public final class ExternalEngines {

    /** More keys than this are not written to h2load's URI file. */
    static final int MAX_URIS = 100_000;
    /** How long after its duration a tool may take to print and exit before it is killed. */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(30);
    /** USER_HZ: 100 on every Linux architecture Loadlab runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** Whether util-linux's {@code setpriv} is there to tie the tool's life to this JVM's. */
    private static final boolean PDEATHSIG = io.loadlab.subject.Subjects.onPath("setpriv");

    private ExternalEngines() {
    }

    /**
     * Why {@code engine} cannot run this request or these durations, or empty when it can.
     *
     * @param durations the durations it would run for (window, warm-up); zero ones are skipped
     */
    public static Optional<String> cannotRun(Engine engine, String path, List<Duration> durations) {
        if (!engine.external()) {
            return Optional.empty();
        }
        for (Duration d : durations) {
            if (engine == Engine.WRK && !d.isZero() && (d.toMillis() % 1000 != 0)) {
                return Optional.of("wrk takes whole seconds, got " + d.toMillis() + " ms: use a duration and"
                        + " warm-up such as 5s");
            }
        }
        if (engine == Engine.H2LOAD) {
            Matcher m = RequestTemplate.SUBSTITUTION.matcher(path);
            int n = 0;
            while (m.find()) {
                n++;
                if (m.group(1).equals("seq")) {
                    return Optional.of("h2load cannot send a new {seq} number with each request (path " + path
                            + "); use --engine wrk or builtin for this workload");
                }
                long count = Long.parseLong(m.group(3)) - Long.parseLong(m.group(2)) + 1;
                if (count > MAX_URIS) {
                    return Optional.of("h2load needs every key of " + m.group() + " in a file, and " + count
                            + " keys is more than " + MAX_URIS + "; use --engine wrk or builtin");
                }
            }
            if (n > 1) {
                return Optional.of("h2load can take one {rand:LO-HI} per path, " + path + " has " + n);
            }
        }
        return Optional.empty();
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
        cannotRun(load.engine(), load.path(), List.of(load.duration())).ifPresent(why -> {
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
                    + tail(text, 5));
        }
        try {
            Tool tool = load.engine() == Engine.WRK ? Tool.WRK : Tool.H2LOAD;
            return new ExternalRun(Importers.parse(tool, text), cpu, wall, command, output);
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
        String seconds = load.engine() == Engine.WRK ? load.duration().toSeconds() + "s"
                : load.duration().toMillis() + "ms";
        if (load.engine() == Engine.WRK) {
            cmd.addAll(List.of("wrk", "-t", Integer.toString(load.threads()), "-c", Integer.toString(load.connections()),
                    "-d", seconds, "--latency"));
            Optional<String> script = wrkScript(load);
            if (script.isPresent()) {
                Path lua = scratch.resolve("request.lua");
                Files.writeString(lua, script.get(), StandardCharsets.UTF_8);
                cmd.addAll(List.of("-s", lua.toString()));
            }
            cmd.add(load.url() + literalPath(load.path()));
        } else {
            cmd.addAll(List.of("h2load", "--h1", "-t", Integer.toString(load.threads()), "-c",
                    Integer.toString(load.connections()), "-D", seconds));
            if (sendsBody(load)) {
                Path body = scratch.resolve("body.bin");
                Files.write(body, body(load.bodySize()));
                cmd.addAll(List.of("-d", body.toString()));
            }
            if (!load.method().equals(sendsBody(load) ? "POST" : "GET")) {
                cmd.addAll(List.of("-H", ":method: " + load.method()));
            }
            Matcher m = RequestTemplate.SUBSTITUTION.matcher(load.path());
            if (m.find()) {
                Path uris = scratch.resolve("uris.txt");
                Files.write(uris, uris(load, m), StandardCharsets.UTF_8);
                cmd.addAll(List.of("-i", uris.toString()));
            } else {
                cmd.add(load.url() + load.path());
            }
        }
        return cmd;
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

    /**
     * The Lua script wrk needs for a method other than GET, a body, or substitutions; empty for a
     * plain GET, which wrk then sends without running Lua per request.
     */
    static Optional<String> wrkScript(ExternalLoad load) {
        Matcher m = RequestTemplate.SUBSTITUTION.matcher(load.path());
        boolean substitutes = m.find();
        if (load.method().equals("GET") && load.bodySize() == 0 && !substitutes) {
            return Optional.empty();
        }
        StringBuilder s = new StringBuilder();
        s.append("-- Written by Loadlab: the workload's request for wrk.\n");
        s.append("wrk.method = ").append(lua(load.method())).append('\n');
        if (load.bodySize() > 0) {
            s.append("local parts = {}\n")
                    .append("for i = 0, ").append(load.bodySize() - 1).append(" do parts[#parts + 1] = string.char(97 + i % 26) end\n")
                    .append("wrk.body = table.concat(parts)\n");
        } else if (!load.method().equals("GET") && !load.method().equals("HEAD")) {
            s.append("wrk.headers[\"Content-Length\"] = \"0\"\n");
        }
        if (substitutes) {
            // setup() runs in the main Lua state, once per thread; each thread then has its own state.
            s.append("local next_id = 0\n")
                    .append("function setup(thread)\n  thread:set(\"loadlab_id\", next_id)\n  next_id = next_id + 1\nend\n")
                    .append("function init(args)\n  math.randomseed(").append(load.seed())
                    .append(" + loadlab_id * 7919)\n  loadlab_seq = loadlab_id\nend\n")
                    .append("function request()\n  local path = ");
            List<String> parts = new ArrayList<>();
            int at = 0;
            m.reset();
            boolean seq = false;
            while (m.find()) {
                if (m.start() > at) {
                    parts.add(lua(load.path().substring(at, m.start())));
                }
                if (m.group(1).equals("seq")) {
                    parts.add("loadlab_seq");
                    seq = true;
                } else {
                    parts.add("math.random(" + m.group(2) + ", " + m.group(3) + ")");
                }
                at = m.end();
            }
            if (at < load.path().length()) {
                parts.add(lua(load.path().substring(at)));
            }
            s.append(String.join(" .. ", parts)).append('\n');
            if (seq) {
                s.append("  loadlab_seq = loadlab_seq + ").append(load.threads()).append('\n');
            }
            s.append("  return wrk.format(nil, path)\nend\n");
        }
        return Optional.of(s.toString());
    }

    /** A Lua string literal. */
    private static String lua(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format(Locale.ROOT, "\\%03d", (int) c & 0xff));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
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
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            // Fields 16 and 17 of stat(5), cutime and cstime; offset by 3 here.
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static String tail(String text, int lines) {
        List<String> all = text.strip().lines().toList();
        return String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
