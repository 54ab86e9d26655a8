package io.loadlab.stats;

import io.loadlab.data.AnalysisGroups;
import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tech.tablesaw.api.Table;

/**
 * The cost of TLS and of HTTP/2: for the runs of an experiment with protocol variants
 * ({@code loadlab run --variants 'protocol=.*'} or {@code --protocols}), each protocol of a subject
 * against the same subject's runs over plain HTTP/1.1 ({@code h1}) on the same workload, in the
 * same other variants, engine and settings. The ratio of requests per server CPU-second
 * ({@code rps_per_server_cpu_s}) says what the protocol costs the server per request: 0.6 means a
 * request over it takes 1 / 0.6 = 1.67 times the server CPU of one over h1. The ratio of requests
 * per second says what it costs in throughput. Stateless and thread-safe.
 *
 * <p>The protocol of a run is its variant's {@code protocol} value; runs over h1 carry none (their
 * label leaves {@code protocol=h1} out, so that they pair with runs made before protocols existed),
 * or, in experiments recorded before that, {@code protocol=h1}. Each comparison follows the verdict
 * rule of {@link Comparison}, through the same code: at least 3 rounds each, the ratio's 95%
 * bootstrap CI outside 1 &plusmn; noise, and the test's p below alpha, paired by round when both ran
 * in the same rounds (the runner starts every protocol variant of a subject in each round).
 */
public final class Protocols {

    /** The protocol the others are held against: HTTP/1.1 over plain TCP. */
    public static final String H1 = "h1";

    /** The metrics of {@link #cost}: the cost per server CPU-second first, then in throughput. */
    public static final List<String> METRICS = List.of(RunColumn.RPS_PER_SERVER_CPU_S.id(), RunColumn.RPS.id());

    private static final String KEY = "protocol=";
    /** The order tables list protocols in; another value comes after these, by name. */
    private static final List<String> ORDER = List.of("h1-tls", "h2-tls", "h2c");

    private Protocols() {
    }

    /**
     * Whether the runs hold a protocol variant other than h1 (of any status): whether an experiment
     * has a cost-of-protocols table to show.
     *
     * @throws StatsException when the table lacks a column of runs.csv that every statistic needs
     */
    public static boolean present(Table runs) {
        RunData data = RunData.of(runs);
        for (int i = 0; i < runs.rowCount(); i++) {
            if (!protocol(data.label(i).analysisVariant()).equals(H1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #compare} for each of {@link #METRICS} with the default options, in one table: the
     * rows of {@code rps_per_server_cpu_s} first, then those of {@code rps}; runs without a
     * server CPU figure (an imported run, say) are left out of the first.
     *
     * @throws StatsException as {@link #compare}
     */
    public static Table cost(Table runs) {
        return cost(runs, CompareOptions.defaults());
    }

    /** As {@link #cost(Table)}, with the thresholds of {@code o}. */
    public static Table cost(Table runs, CompareOptions o) {
        Table out = compare(runs, METRICS.get(0), o);
        return out.append(compare(runs, METRICS.get(1), o)).setName("cost of protocols");
    }

    /**
     * Each protocol variant of each subject against the subject's h1 runs, over the successful
     * runs: the groups of {@link AnalysisGroups} (another engine, connection count or rate is a
     * variant of its own, whose protocols are held against its own h1 runs).
     *
     * @param runs   one row per run, with the columns of {@code runs.csv}
     * @param metric a numeric column, in practice one of {@link #METRICS}; the ratio is the
     *               protocol's mean over h1's mean
     * @param o      thresholds and bootstrap settings
     * @return one row per subject, other variant, workload and protocol other than h1 with a value,
     *         sorted by workload, subject, variant, protocol (h1-tls, h2-tls, h2c); columns subject,
     *         variant (the other variants and settings, without the protocol), workload, protocol,
     *         metric, n, mean, cv, h1_n, h1_mean, h1_cv, ratio (protocol / h1), ratio_ci_low,
     *         ratio_ci_high (95% bootstrap), test ({@code paired}, {@code welch} or ""), p_test,
     *         p_welch, verdict, note. Without an h1 group (h1 not run, or every h1 run failed)
     *         h1_n is 0, the ratio NaN and the verdict {@code no baseline}.
     * @throws StatsException when the runs hold no protocol variant other than h1 (the message says
     *                        how to run some), lack a runs.csv column, or the metric is unknown
     */
    public static Table compare(Table runs, String metric, CompareOptions o) {
        if (o == null) {
            throw new StatsException("no compare options given; use CompareOptions.defaults()");
        }
        if (!present(runs)) {
            throw new StatsException("the runs have no protocol variant besides h1, so there is no cost of TLS or h2 to"
                    + " show; run for example loadlab run --subjects 'nginx|go-nethttp' --variants 'protocol=.*'");
        }
        Direction direction = Direction.of(metric);
        ProtocolTable t = new ProtocolTable();
        for (Map.Entry<Key, Map<String, List<RunData.Obs>>> e : samples(runs, metric).entrySet()) {
            List<RunData.Obs> h1 = e.getValue().get(H1);
            for (Map.Entry<String, List<RunData.Obs>> p : e.getValue().entrySet()) {
                if (p.getKey().equals(H1)) {
                    continue;
                }
                Key k = e.getKey();
                if (h1 == null) {
                    t.add(k.subject, k.variant, k.workload, p.getKey(), metric, p.getValue(), List.of(), null,
                            "no successful h1 run of " + Group.subjectLabel(k.subject, k.variant) + " on "
                            + k.workload + " to hold it against; run h1 too (--protocols 'h1|...')");
                } else {
                    Verdicts.Judgement j = Verdicts.judge(p.getValue(), h1, direction, o, H1);
                    t.add(k.subject, k.variant, k.workload, p.getKey(), metric, p.getValue(), h1, j, note(p.getKey(), j));
                }
            }
        }
        return t.table(metric + " cost of protocols");
    }

    /** The note of a judged row: the verdict rule's, or how much more or less than h1 when a difference is called. */
    private static String note(String protocol, Verdicts.Judgement j) {
        boolean called = j.verdict().isDifference();
        return !called ? j.note() : String.format(Locale.ROOT, "%s gives %.1f%% %s than %s", protocol,
                Math.abs(j.ratio() - 1) * 100, j.ratio() > 1 ? "more" : "less", H1);
    }

    /** The protocol of an analysis variant label: its {@code protocol} value, h1 without one. */
    static String protocol(String variant) {
        for (String part : variant.split(",")) {
            if (part.startsWith(KEY)) {
                return part.substring(KEY.length());
            }
        }
        return H1;
    }

    /** An analysis variant label without its protocol part. */
    static String withoutProtocol(String variant) {
        List<String> kept = new ArrayList<>();
        for (String part : variant.split(",")) {
            if (!part.isEmpty() && !part.startsWith(KEY)) {
                kept.add(part);
            }
        }
        return String.join(",", kept);
    }

    /** A subject in its other variants on a workload, whatever the protocol. */
    private record Key(String workload, String subject, String variant) implements Comparable<Key> {
        private static final Comparator<Key> BY = Comparator.comparing(Key::workload).thenComparing(Key::subject)
                .thenComparing(Key::variant);

        @Override
        public int compareTo(Key other) {
            return BY.compare(this, other);
        }
    }

    /** Protocols in table order: those of {@link #ORDER}, then the others by name. */
    private static final Comparator<String> PROTOCOL_ORDER = Comparator
            .comparingInt((String p) -> ORDER.contains(p) ? ORDER.indexOf(p) : ORDER.size())
            .thenComparing(Comparator.naturalOrder());

    /** The metric's values of the successful runs, by subject and other variants, then by protocol. */
    private static Map<Key, Map<String, List<RunData.Obs>>> samples(Table runs, String metric) {
        return RunData.of(runs).valuesBy(metric,
                (g, row) -> new Key(g.workload(), g.subject(), withoutProtocol(g.variant())),
                (g, row) -> protocol(g.variant()), PROTOCOL_ORDER);
    }
}
