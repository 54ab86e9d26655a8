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
 * Benchmark, not a test: generates an experiment of 10,000 runs (10 subjects x 10 workloads x 100
 * rounds, 5 one-second latency histograms each), then times loading it and computing the summary,
 * comparison and warning tables, and reports the peak heap. Run with bench/analysis.sh.
 */
public final class AnalysisBenchmark {

    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("loadlab-bench-");
        int subjects = 10;
        int workloads = 10;
        int rounds = 100;
        long g0 = System.nanoTime();
        generate(dir, subjects, workloads, rounds);
        System.out.printf(Locale.ROOT, "generated %,d runs in %s (%.1f s, runs.csv %,d bytes, latency.hlog %,d bytes)%n",
                subjects * workloads * rounds, dir, (System.nanoTime() - g0) / 1e9,
                Files.size(dir.resolve("runs.csv")), Files.size(dir.resolve("latency.hlog")));
        // Iteration 1 is cold (class loading, Tablesaw's start-up classpath scan, JIT); the
        // later ones show the cost in a long-lived notebook or JShell session.
        for (int iteration = 1; iteration <= 3; iteration++) {
            System.gc();
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                p.resetPeakUsage();
            }
            long t0 = System.nanoTime();
            Results r = Results.load(dir);
            long t1 = System.nanoTime();
            Table runs = r.runs();
            Table summary = Stats.summarize(runs, "rps");
            Table comparison = Comparison.compare(runs, "rps", "s00", CompareOptions.defaults());
            int warnings = Warnings.find(runs, "rps", WarningOptions.defaults()).size();
            Table percentiles = r.latencyPercentiles();
            long t2 = System.nanoTime();
            long peak = 0;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP) {
                    peak += p.getPeakUsage().getUsed();
                }
            }
            System.out.printf(Locale.ROOT, "iteration %d (%s): load %.2f s (%,d runs, %d merged histograms), "
                    + "summary+comparison+warnings %.2f s (%d, %d rows, %d warnings), total %.2f s, "
                    + "peak heap %.0f MiB of %.0f MiB%n", iteration, iteration == 1 ? "cold" : "warm",
                    (t1 - t0) / 1e9, runs.rowCount(), percentiles.rowCount(), (t2 - t1) / 1e9, summary.rowCount(),
                    comparison.rowCount(), warnings, (t2 - t0) / 1e9, peak / 1048576.0,
                    Runtime.getRuntime().maxMemory() / 1048576.0);
        }
    }

    private static void generate(Path dir, int subjects, int workloads, int rounds) throws IOException {
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
                for (int s = 0; s < subjects; s++) {
                    for (int wl = 0; wl < workloads; wl++) {
                        id++;
                        double speed = 50_000 * (1 + 0.05 * s) * (1 + 0.03 * rnd.nextGaussian());
                        long requests = 0;
                        Histogram total = new Histogram(3);
                        for (int sec = 0; sec < 5; sec++) {
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
                        Map<String, String> v = new HashMap<>();
                        v.put("experiment", "bench");
                        v.put("run_id", Integer.toString(id));
                        v.put("round", Integer.toString(round));
                        v.put("position", Integer.toString(s + 1));
                        v.put("subject", String.format(Locale.ROOT, "s%02d", s));
                        v.put("workload", String.format(Locale.ROOT, "w%02d", wl));
                        v.put("engine", "builtin");
                        v.put("duration_s", "5");
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
                        csv.write(new RunRow(v).toCsv());
                        csv.newLine();
                    }
                }
            }
        }
    }
}
