package io.loadlab.bench;

import io.loadlab.data.Results;
import io.loadlab.data.RunRow;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.Stats;
import io.loadlab.stats.WarningOptions;
import io.loadlab.stats.Warnings;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import tech.tablesaw.api.Table;

/**
 * Benchmark, not a test. {@code generate DIR RUNS} writes an experiment of RUNS runs (10 subjects
 * x 10 workloads x RUNS/100 rounds, 5 one-second latency histograms each); {@code measure DIR}
 * times loading it and computing the summary, comparison and warning tables and the merged
 * latency percentiles (the target), and reports the peak heap; then it times the intervals table.
 * The two are separate JVMs so that the first measured iteration is really cold. Run with
 * bench/analysis.sh.
 */
public final class AnalysisBenchmark {

    private static final int SUBJECTS = 10;
    private static final int WORKLOADS = 10;
    private static final int SECONDS = 5;

    public static void main(String[] args) throws IOException {
        if (args.length == 3 && args[0].equals("generate")) {
            int runs = Integer.parseInt(args[2]);
            if (runs < SUBJECTS * WORKLOADS || runs % (SUBJECTS * WORKLOADS) != 0) {
                throw new IllegalArgumentException("runs must be a multiple of " + SUBJECTS * WORKLOADS + ": " + runs);
            }
            generate(Path.of(args[1]), runs / (SUBJECTS * WORKLOADS));
        } else if (args.length >= 2 && args[0].equals("measure")) {
            measure(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 3);
        } else {
            System.err.println("usage: AnalysisBenchmark generate DIR RUNS | measure DIR [ITERATIONS]");
            System.exit(2);
        }
    }

    private static void measure(Path dir, int iterations) {
        // Iteration 1 is cold (class loading, Tablesaw's start-up classpath scan, JIT); the
        // later ones show the cost in a long-lived notebook or JShell session.
        for (int iteration = 1; iteration <= iterations; iteration++) {
            System.gc();
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                p.resetPeakUsage();
            }
            long t0 = System.nanoTime();
            Results r = Results.load(dir);
            long t1 = System.nanoTime();
            Table runs = r.runs();
            Table summary = Stats.summarize(runs, "rps");
            long t2 = System.nanoTime();
            Table comparison = Comparison.compare(runs, "rps", "s00", CompareOptions.defaults());
            long t3 = System.nanoTime();
            int warnings = Warnings.find(runs, "rps", WarningOptions.defaults()).size();
            long t4 = System.nanoTime();
            Table percentiles = r.latencyPercentiles();
            long t5 = System.nanoTime();
            long peak = heap(true);
            System.gc();
            long retained = heap(false);
            // Not part of the target: the per-second table, built on its first use.
            long t6 = System.nanoTime();
            int intervals = r.intervals().rowCount();
            long t7 = System.nanoTime();
            Reference.reachabilityFence(r);
            System.out.printf(Locale.ROOT, "iteration %d (%s): load %.2f s (%,d runs), tables %.2f s (summary %.2f,"
                    + " comparison %.2f, warnings %.2f, merged percentiles %.2f: %d, %d, %d warnings, %d rows),"
                    + " total %.2f s, peak heap %.0f MiB of %.0f MiB, retained after GC %.0f MiB; then intervals()"
                    + " %.2f s (%,d rows)%n", iteration,
                    iteration == 1 ? "cold" : "warm", s(t1 - t0), runs.rowCount(), s(t5 - t1), s(t2 - t1), s(t3 - t2),
                    s(t4 - t3), s(t5 - t4), summary.rowCount(), comparison.rowCount(), warnings,
                    percentiles.rowCount(), s(t5 - t0), peak / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576.0,
                    retained / 1048576.0, s(t7 - t6), intervals);
        }
        System.out.printf(Locale.ROOT, "JVM up %.2f s at the end%n",
                ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0);
    }

    private static double s(long nanos) {
        return nanos / 1e9;
    }

    /** The heap in use now, or its peak since the last reset, summed over the heap pools (bytes). */
    private static long heap(boolean peak) {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += (peak ? p.getPeakUsage() : p.getUsage()).getUsed();
            }
        }
        return sum;
    }

    private static void generate(Path dir, int rounds) throws IOException {
        long g0 = System.nanoTime();
        Files.createDirectories(dir);
        SplittableRandom rnd = new SplittableRandom(42);
        long start = 1_796_000_000_000L;
        try (BufferedWriter csv = Files.newBufferedWriter(dir.resolve("runs.csv"), StandardCharsets.UTF_8);
             PrintStream hlog = new PrintStream(Files.newOutputStream(dir.resolve("latency.hlog")), false,
                     StandardCharsets.US_ASCII)) {
            csv.write(RunRow.csvHeader());
            csv.newLine();
            HistogramLogWriter w = new HistogramLogWriter(hlog);
            w.outputLogFormatVersion();
            w.outputStartTime(start);
            w.setBaseTime(start);
            w.outputLegend();
            int id = 0;
            double t = 0;
            for (int round = 1; round <= rounds; round++) {
                for (int s = 0; s < SUBJECTS; s++) {
                    for (int wl = 0; wl < WORKLOADS; wl++) {
                        id++;
                        double speed = 50_000 * (1 + 0.05 * s) * (1 + 0.03 * rnd.nextGaussian());
                        long requests = 0;
                        Histogram total = new Histogram(3);
                        for (int sec = 0; sec < SECONDS; sec++) {
                            Histogram h = new Histogram(3);
                            for (int k = 0; k < 200; k++) {
                                h.recordValueWithCount(200 + (long) (rnd.nextDouble() * rnd.nextDouble() * 5000), 25);
                            }
                            h.setTag(Integer.toString(id));
                            w.outputIntervalHistogram(t, t + 1, h, 1000.0);
                            t += 1;
                            requests += h.getTotalCount();
                            total.add(h);
                        }
                        csv.write(row(id, round, s, wl, speed, requests, total).toCsv());
                        csv.newLine();
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "generated %,d runs in %s (%.1f s, runs.csv %,d bytes, latency.hlog %,d bytes)%n",
                SUBJECTS * WORKLOADS * rounds, dir, (System.nanoTime() - g0) / 1e9,
                Files.size(dir.resolve("runs.csv")), Files.size(dir.resolve("latency.hlog")));
    }

    private static RunRow row(int id, int round, int s, int wl, double speed, long requests, Histogram total) {
        Map<String, String> v = new HashMap<>();
        v.put("experiment", "bench");
        v.put("run_id", Integer.toString(id));
        v.put("round", Integer.toString(round));
        v.put("position", Integer.toString(s + 1));
        v.put("subject", String.format(Locale.ROOT, "s%02d", s));
        v.put("workload", String.format(Locale.ROOT, "w%02d", wl));
        v.put("engine", "builtin");
        v.put("duration_s", Integer.toString(SECONDS));
        v.put("requests", Long.toString(requests));
        v.put("rps", RunRow.num(speed));
        v.put("lat_p50_us", Long.toString(total.getValueAtPercentile(50)));
        v.put("lat_p99_us", Long.toString(total.getValueAtPercentile(99)));
        v.put("rps_per_server_cpu_s", RunRow.num(speed / 0.9));
        v.put("load_bound", "false");
        v.put("status", "ok");
        for (String e : new String[] {"errors_connect", "errors_read", "errors_write", "errors_timeout",
            "errors_status", "errors_protocol"}) {
            v.put(e, "0");
        }
        return new RunRow(v);
    }
}
