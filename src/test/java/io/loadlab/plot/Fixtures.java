package io.loadlab.plot;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Hand-built tables shaped like the experiment's, with fixed seeds so every run sees the same data. */
final class Fixtures {

    static final List<String> WORKLOADS = List.of("plaintext", "json");
    static final int ROUNDS = 5;

    private Fixtures() {
    }

    /** A typical relative speed per bundled subject, so the charts look like real ones. */
    static double speed(String subject) {
        return 1.0 + 0.25 * Palette.BUNDLED.indexOf(subject) % 3 + 0.1 * subject.length() % 0.7;
    }

    /** One row per run: every bundled subject, both workloads, five rounds; one failed run. */
    static Table runs() {
        StringColumn subject = StringColumn.create("subject");
        StringColumn variant = StringColumn.create("variant");
        StringColumn workload = StringColumn.create("workload");
        StringColumn status = StringColumn.create("status");
        IntColumn runId = IntColumn.create("run_id");
        IntColumn round = IntColumn.create("round");
        DoubleColumn rps = DoubleColumn.create("rps");
        DoubleColumn perCpu = DoubleColumn.create("rps_per_server_cpu_s");
        LongColumn rss = LongColumn.create("server_peak_rss_bytes");
        LongColumn p99 = LongColumn.create("lat_p99_us");
        Random random = new Random(7);
        int id = 0;
        for (int r = 1; r <= ROUNDS; r++) {
            for (String w : WORKLOADS) {
                for (String s : Palette.BUNDLED) {
                    double base = 40_000 * speed(s) * (w.equals("json") ? 0.8 : 1.0);
                    subject.append(s);
                    variant.append("");
                    workload.append(w);
                    status.append(r == 3 && s.equals("node-http") && w.equals("json") ? "failed" : "ok");
                    runId.append(++id);
                    round.append(r);
                    rps.append(base * (1 + 0.03 * random.nextGaussian() - 0.01 * r));
                    perCpu.append(base / 3.5 * (1 + 0.04 * random.nextGaussian()));
                    rss.append((long) ((8 + 30 * (Palette.BUNDLED.indexOf(s) % 4)) * 1048576.0
                            * (1 + 0.02 * random.nextGaussian())));
                    p99.append((long) (2_000 / speed(s) * (1 + 0.1 * random.nextGaussian())));
                }
            }
        }
        return Table.create("runs", subject, variant, workload, status, runId, round, rps, perCpu, rss, p99);
    }

    /** What Stats.summarize returns: one row per subject, variant, workload and metric. */
    static Table summary() {
        StringColumn subject = StringColumn.create("subject");
        StringColumn variant = StringColumn.create("variant");
        StringColumn workload = StringColumn.create("workload");
        StringColumn metric = StringColumn.create("metric");
        IntColumn n = IntColumn.create("n");
        DoubleColumn mean = DoubleColumn.create("mean");
        DoubleColumn sd = DoubleColumn.create("sd");
        DoubleColumn low = DoubleColumn.create("ci_low");
        DoubleColumn high = DoubleColumn.create("ci_high");
        for (String m : List.of("rps", "rps_per_server_cpu_s")) {
            for (String w : WORKLOADS) {
                for (String s : Palette.BUNDLED) {
                    double value = 40_000 * speed(s) * (w.equals("json") ? 0.8 : 1.0) / (m.equals("rps") ? 1 : 3.5);
                    double half = value * 0.02 * (1 + Palette.BUNDLED.indexOf(s) % 3);
                    subject.append(s);
                    variant.append("");
                    workload.append(w);
                    metric.append(m);
                    n.append(ROUNDS);
                    mean.append(value);
                    sd.append(half);
                    low.append(value - half);
                    high.append(value + half);
                }
            }
        }
        return Table.create("summary", subject, variant, workload, metric, n, mean, sd, low, high);
    }

    /** One row per run and second for a 30 s window, workload plaintext, three subjects × 3 rounds. */
    static Table intervals(List<String> subjects, int rounds) {
        StringColumn subject = StringColumn.create("subject");
        StringColumn variant = StringColumn.create("variant");
        StringColumn workload = StringColumn.create("workload");
        IntColumn runId = IntColumn.create("run_id");
        IntColumn round = IntColumn.create("round");
        DoubleColumn t = DoubleColumn.create("t_s");
        DoubleColumn rps = DoubleColumn.create("rps");
        DoubleColumn p50 = DoubleColumn.create("lat_p50_us");
        DoubleColumn p99 = DoubleColumn.create("lat_p99_us");
        Random random = new Random(11);
        int id = 0;
        for (int r = 1; r <= rounds; r++) {
            for (String s : subjects) {
                id++;
                for (int second = 1; second <= 30; second++) {
                    double base = 40_000 * speed(s);
                    subject.append(s);
                    variant.append("");
                    workload.append("plaintext");
                    runId.append(id);
                    round.append(r);
                    t.append(second);
                    rps.append(base * (1 + 0.02 * random.nextGaussian()));
                    p50.append(500 / speed(s) * (1 + 0.05 * random.nextGaussian()));
                    p99.append(2_000 / speed(s) * (1 + 0.2 * Math.abs(random.nextGaussian())));
                }
            }
        }
        return Table.create("intervals", subject, variant, workload, runId, round, t, rps, p50, p99);
    }

    /** Log-normal latencies (µs) with a slow tail, one histogram per label. */
    static Map<String, Histogram> histograms(List<String> labels, int count) {
        Map<String, Histogram> out = new LinkedHashMap<>();
        Random random = new Random(3);
        for (String label : labels) {
            Histogram h = new Histogram(60_000_000L, 3);
            double median = 400 / speed(Palette.subjectOf(label));
            for (int i = 0; i < count; i++) {
                double v = median * Math.exp(0.35 * random.nextGaussian());
                if (random.nextInt(500) == 0) {
                    v *= 20 + random.nextInt(30); // a GC pause or a retransmit
                }
                h.recordValue(Math.max(1, (long) v));
            }
            out.put(label, h);
        }
        return out;
    }
}
