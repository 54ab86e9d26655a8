package io.loadlab.load.summary;

import io.loadlab.format.Units;
import io.loadlab.load.ErrorCounts;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The terminal summary of one run, laid out for a wrk or oha user. */
public final class TextSummary {

    /** Percentiles shown in the latency distribution. */
    static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99};

    private TextSummary() {
    }

    /** The line printed before a run starts: what is about to happen. */
    public static String header(LoadSpec spec) {
        StringBuilder sb = new StringBuilder();
        sb.append("Running ").append(spec.bound()).append(" test @ ").append(spec.request().method()).append(' ')
                .append(spec.request().target().url()).append('\n');
        sb.append(String.format(Locale.ROOT, "  %s, %d connection%s, %d thread%s, transport %s%s%s%n",
                spec.model().describe(), spec.connections(), spec.connections() == 1 ? "" : "s",
                spec.threads(), spec.threads() == 1 ? "" : "s", spec.transport().resolve().label(),
                ProtocolText.header(spec), spec.warmup().isNone() ? "" : ", " + spec.warmup().describe()));
        if (spec.request().closesConnection()) {
            sb.append("  a new connection per request (Connection: close)\n");
        }
        return sb.toString();
    }

    /** The full summary of a finished run. */
    public static String format(LoadResult r) {
        StringBuilder sb = new StringBuilder();
        latencies(sb, r);
        sb.append('\n');
        throughput(sb, r);
        statusAndErrors(sb, r);
        cpu(sb, r);
        warnings(sb, r);
        return sb.toString();
    }

    /** The latency distribution, and the service time's where the run has one. */
    private static void latencies(StringBuilder sb, LoadResult r) {
        boolean fixed = r.spec().isFixedRate();
        sb.append('\n').append(fixed ? "Latency (from due time, coordinated omission corrected)" : "Latency")
                .append('\n');
        distribution(sb, r.latency());
        r.serviceTime().ifPresent(svc -> {
            sb.append("\nService time (from actual send)\n");
            distribution(sb, svc);
        });
    }

    /** Requests, rate, target rate, warm-up and transfer. */
    private static void throughput(StringBuilder sb, LoadResult r) {
        sb.append(String.format(Locale.ROOT, "  Requests      %s in %.2fs, %s bytes read%n",
                Units.count(r.requests()), r.durationSeconds(), Units.bytes(r.bytesRead())));
        sb.append(String.format(Locale.ROOT, "  Requests/sec  %s%n", Units.integer(r.rps())));
        r.targetRps().ifPresent(target -> sb.append(String.format(Locale.ROOT,
                "  Target rate   %s/s, %s due but never sent%n", Units.integer(target), Units.count(r.missed()))));
        r.pacing().ifPresent(p -> sb.append(String.format(Locale.ROOT,
                "  Pacing        slack %s, sent late by p50 %s, p99 %s; %s timed wake-ups/s%n",
                Units.latency(p.slackNanos() / 1e3), Units.latency(p.lateness().getValueAtPercentile(50) / 1e3),
                Units.latency(p.lateness().getValueAtPercentile(99) / 1e3),
                Units.integer(p.wakeTimes() / Math.max(1e-9, r.durationSeconds())))));
        if (r.warmup().cutShort().isPresent()) {
            sb.append(String.format(Locale.ROOT, "  Warm-up       %.1fs, ended early: %s%n", r.warmupSeconds(),
                    r.warmup().cutShort().get()));
        } else if (r.warmupSeconds() > 0) {
            sb.append(String.format(Locale.ROOT, "  Warm-up       %.1fs, %s%n", r.warmupSeconds(), r.steady().orElse(false)
                    ? "steady at its end (throughput flat, JIT compilers quiet)"
                    : "NOT steady at its end (throughput still changing or, at a fixed rate, above the target; or JIT compilers busy)"));
        }
        r.pacing().filter(p -> p.warmupUnsent() > 0).ifPresent(p -> sb.append(String.format(Locale.ROOT,
                "  Behind        the warm-up left %s requests due and unsent; the window began on schedule"
                        + " without them%n", Units.count(p.warmupUnsent()))));
        sb.append(String.format(Locale.ROOT, "  Transfer/sec  %s read, %s written%n",
                Units.bytes(r.bytesReadPerSecond()), Units.bytes(r.bytesWritten() / Math.max(1e-9, r.durationSeconds()))));
    }

    /** Responses by status code, errors by kind, and the connections' setup time. */
    private static void statusAndErrors(StringBuilder sb, LoadResult r) {
        sb.append("  Status codes ");
        if (r.statusCodes().isEmpty()) {
            sb.append("none");
        }
        boolean first = true;
        for (Map.Entry<Integer, Long> e : r.statusCodes().entrySet()) {
            sb.append(first ? "" : ", ").append(e.getKey()).append(": ").append(Units.count(e.getValue()));
            first = false;
        }
        sb.append('\n');
        ErrorCounts e = r.errors();
        sb.append(String.format(Locale.ROOT,
                "  Errors        connect %s, read %s, write %s, timeout %s, status %s, protocol %s%s%s%n",
                Units.count(e.connect()), Units.count(e.read()), Units.count(e.write()),
                Units.count(e.timeout()), Units.count(e.status()), Units.count(e.protocol()),
                r.tls().isPresent() ? ", tls " + Units.count(e.tls()) : "",
                r.spec().expectation().bodyContains().isPresent() ? ", body " + Units.count(e.body()) : ""));
        Histogram ct = r.connectTime();
        if (ct.getTotalCount() > 0) {
            sb.append(String.format(Locale.ROOT, "  Connect       %s connections, mean %s, max %s%n",
                    Units.count(ct.getTotalCount()), Units.latency(ct.getMean()), Units.latency(ct.getMaxValue())));
        }
        ProtocolText.append(sb, r);
    }

    /** The load generator's CPU, its share of the CPUs it had, the process's, and the hypervisor's steal. */
    private static void cpu(StringBuilder sb, LoadResult r) {
        sb.append(String.format(Locale.ROOT,
                "  Load CPU      %.2fs on %d thread%s (%.0f%% of %d CPU%s), %s requests per CPU-second%n",
                r.loadCpuSeconds(), r.spec().threads(), r.spec().threads() == 1 ? "" : "s",
                100 * r.loadCpuSeconds() / Math.max(1e-9, r.durationSeconds() * r.loadCpus()),
                r.loadCpus(), r.loadCpus() == 1 ? "" : "s", Units.integer(r.rpsPerLoadCpuSecond())));
        sb.append(String.format(Locale.ROOT, "  Process CPU   %.2fs (JVM included; %.2fs outside the event loops, GC %.3fs in %d"
                        + " collection%s)%n", r.processCpuSeconds(), r.nonLoopCpuSeconds(), r.jvm().gcSeconds(),
                r.jvm().gcCount(), r.jvm().gcCount() == 1 ? "" : "s"));
        r.stealSeconds().ifPresent(steal -> sb.append(String.format(Locale.ROOT,
                "  Steal         %.2fs (the hypervisor's, on the load generator's CPUs)%n", steal)));
    }

    /** One paragraph a warning: load bound, not steady, rate not reached, stopped early. */
    private static void warnings(StringBuilder sb, LoadResult r) {
        if (r.loadBound()) {
            sb.append("\n  WARNING: the load generator's threads were busy at least ")
                    .append(Math.round(LoadResult.LOAD_BOUND_SHARE * 100))
                    .append("% of the time: this run may measure Loadlab, not the server. Add threads (-t) or CPUs.\n");
        }
        if (r.steady().isPresent() && !r.steady().get() && r.warmupSeconds() > 0) {
            sb.append("\n  WARNING: not_steady: the throughput was still changing when the warm-up ended; the window")
                    .append(" measured a server (or engine) still warming up. Raise --warmup-max.\n");
        }
        if (r.rateNotReached()) {
            sb.append(String.format(Locale.ROOT, "%n  WARNING: rate_not_reached: %s/s answered of %s/s targeted, %s requests"
                            + " due but never sent; the latency above includes their waits.%n", Units.integer(r.rps()),
                    Units.integer(r.targetRps().getAsDouble()), Units.count(r.missed())));
        }
        if (r.stoppedEarly()) {
            sb.append("\n  WARNING: stopped before all requests ended: nothing progressed for a request timeout.\n");
        }
    }

    private static void distribution(StringBuilder sb, Histogram h) {
        if (h.getTotalCount() == 0) {
            sb.append("  no responses\n");
            return;
        }
        sb.append(String.format(Locale.ROOT, "  mean %s, stdev %s, max %s%n",
                Units.latency(h.getMean()), Units.latency(h.getStdDeviation()), Units.latency(h.getMaxValue())));
        for (double p : PERCENTILES) {
            sb.append(String.format(Locale.ROOT, "  %-7s %10s%n", trim(p) + "%", Units.latency(h.getValueAtPercentile(p))));
        }
        sb.append(String.format(Locale.ROOT, "  %-7s %10s%n", "max", Units.latency(h.getMaxValue())));
    }

    private static String trim(double p) {
        return p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p);
    }
}
