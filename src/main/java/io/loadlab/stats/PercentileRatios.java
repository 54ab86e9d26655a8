package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/**
 * The ratio of a latency percentile (p50, p90, p99, p99.9) between each group and the baseline, with
 * a 95% interval across rounds. Stateless and thread-safe.
 *
 * <p><b>The figure.</b> In each round both groups ran, the ratio of their percentiles, each from that
 * round's own histogram (the run's {@code lat_pNN_us}, which the engine takes from the run's whole
 * window); the comparison's ratio is the mean of these per-round ratios. Percentiles are never
 * averaged across rounds: the mean of three p99s is the p99 of nothing, while the ratio of two p99s
 * measured side by side in one round is what the round says about the two servers, with what the
 * round did to both (a busy machine) cancelled.
 *
 * <p><b>Interval, test and verdict</b> are those of every comparison ({@link Comparison}'s rule, by
 * its one entry point): the per-round ratios are held against 1 in a paired design, so the
 * bootstrap resamples rounds and the test is the paired t-test of the per-round log ratios. A round
 * where either group has no successful run, or more than one, is left out (the note says so): the
 * pairing is by round or not at all. {@code p_welch} and {@code p_mannwhitney}, which would compare
 * the ratios with a constant, are left empty.
 *
 * <p>A latency sweep compares at equal offered load ({@link EqualRates}); give this class one rate's
 * runs at a time.
 */
public final class PercentileRatios {

    /** The percentiles that have a column of their own in {@code runs.csv}. */
    public enum Percentile {
        P50("p50", RunColumn.LAT_P50_US),
        P90("p90", RunColumn.LAT_P90_US),
        P99("p99", RunColumn.LAT_P99_US),
        P999("p99.9", RunColumn.LAT_P999_US);

        private final String label;
        private final RunColumn column;

        Percentile(String label, RunColumn column) {
            this.label = label;
            this.column = column;
        }

        /** As people write it: {@code p99}, {@code p99.9}. */
        public String label() {
            return label;
        }

        /** The runs.csv column of each run's own percentile, µs. */
        public String column() {
            return column.id();
        }

        /** The percentile a name means: {@code p99}, {@code p99.9} (or {@code p999}); empty for anything else. */
        public static Optional<Percentile> parse(String name) {
            if (name == null) {
                return Optional.empty();
            }
            String n = name.strip().toLowerCase(Locale.ROOT);
            for (Percentile p : values()) {
                if (p.label.equals(n) || p.label.replace(".", "").equals(n)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }

        /** The percentile whose runs.csv column this is ({@code lat_p99_us}); empty for any other column. */
        public static Optional<Percentile> ofColumn(String column) {
            for (Percentile p : values()) {
                if (p.column().equals(column)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }

        @Override
        public String toString() {
            return label;
        }
    }

    private PercentileRatios() {
    }

    /**
     * The comparison as a table, with the columns of {@link Comparison#compare} (metric: the
     * percentile's column; mean, sd and CI: of the group's per-round percentiles, for their spread).
     *
     * @throws StatsException as {@link #rows}
     */
    public static Table compare(Table runs, Percentile percentile, String baseline, CompareOptions options) {
        return Comparison.toTable(percentile.column(), rows(runs, percentile, baseline, options));
    }

    /**
     * Each group against the baseline's group (chosen as {@link Comparison#rows} chooses it), the
     * ratio, its interval, the test and the verdict from the per-round percentile ratios.
     *
     * @param runs       one row per run, with the columns of runs.csv
     * @param percentile which percentile
     * @param baseline   as {@link Comparison#rows}
     * @param options    thresholds and bootstrap settings
     * @throws StatsException as {@link Comparison#rows}
     */
    public static List<ComparisonRow> rows(Table runs, Percentile percentile, String baseline,
                                           CompareOptions options) {
        RunData data = RunData.of(runs);
        NumericColumn<?> column = data.metric(percentile.column());
        Map<Group, List<RunData.Obs>> values = new TreeMap<>();
        data.okRows().forEach((g, rows) -> values.put(g, data.values(column, rows)));
        Direction direction = Direction.of(percentile.column());
        List<ComparisonRow> rows = Comparison.rows(runs, percentile.column(), baseline, options);
        List<ComparisonRow> out = new ArrayList<>(rows);
        // A family is one workload (and this percentile), adjusted together as Comparison does.
        List<Integer> at = new ArrayList<>();
        List<Verdicts.Judgement> judged = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            ComparisonRow r = rows.get(i);
            if (r.verdict() == Verdict.BASELINE || r.verdict() == Verdict.NO_BASELINE) {
                continue;
            }
            Group base = new Group(Group.subjectOf(r.baseline()), Group.variantOf(r.baseline()).orElse(""),
                    r.workload());
            Paired p = paired(values.get(new Group(r.subject(), r.variant(), r.workload())), values.get(base));
            at.add(i);
            judged.add(Verdicts.judge(p.ratios(), p.ones(), direction, options, "baseline"));
            notes.add(p.left() == 0 ? "" : p.left() + " round(s) left out: not one successful run of each in them");
        }
        List<Verdicts.Judgement> adjusted = Verdicts.adjustByFamily(judged,
                at.stream().map(i -> rows.get(i).workload()).toList(), direction, options);
        for (int k = 0; k < at.size(); k++) {
            ComparisonRow r = rows.get(at.get(k));
            Verdicts.Judgement j = adjusted.get(k);
            out.set(at.get(k), new ComparisonRow(r.subject(), r.workload(), r.metric(), r.n(), r.mean(), r.sd(),
                    r.ciLow(), r.ciHigh(), j.ratio(), j.ratioCiLow(), j.ratioCiHigh(), Double.NaN, Double.NaN,
                    j.verdict(), r.variant(), r.baseline(), join(j.note(), notes.get(k)), j.design(), j.pTest(),
                    j.pAdjusted(), options.adjustment(), j.pEquivalence(), j.smallestDetectable(options),
                    j.roundsAdvised(options)));
        }
        return out;
    }

    /** The rule in one sentence, for the foot of a table. */
    public static String rule(Percentile percentile) {
        return "ratio: the mean over rounds of each round's " + percentile.label() + " ratio to the baseline's, each"
                + " from that round's own histogram and paired by round (percentiles are never averaged across"
                + " rounds); its 95% CI resamples rounds; the test is the paired t-test of the per-round log ratios.";
    }

    /**
     * Per-round ratios a/b as observations, and as many ones (what they are held against) in the
     * same rounds.
     *
     * @param left rounds of either group without exactly one positive value of each
     */
    private record Paired(List<RunData.Obs> ratios, List<RunData.Obs> ones, int left) {
    }

    private static Paired paired(List<RunData.Obs> a, List<RunData.Obs> b) {
        SortedMap<String, List<RunData.Obs>> ra = byBlock(a);
        SortedMap<String, List<RunData.Obs>> rb = byBlock(b);
        List<RunData.Obs> ratios = new ArrayList<>();
        List<RunData.Obs> ones = new ArrayList<>();
        java.util.Set<String> blocks = new java.util.TreeSet<>(ra.keySet());
        blocks.addAll(rb.keySet());
        int left = 0;
        for (String block : blocks) {
            List<RunData.Obs> xa = ra.getOrDefault(block, List.of());
            List<RunData.Obs> xb = rb.getOrDefault(block, List.of());
            if (xa.size() != 1 || xb.size() != 1 || !(xa.get(0).value() > 0) || !(xb.get(0).value() > 0)) {
                left++;
                continue;
            }
            RunData.Obs x = xa.get(0);
            ratios.add(new RunData.Obs(x.row(), block, x.round(), x.value() / xb.get(0).value()));
            ones.add(new RunData.Obs(xb.get(0).row(), block, x.round(), 1));
        }
        return new Paired(ratios, ones, left);
    }

    private static SortedMap<String, List<RunData.Obs>> byBlock(List<RunData.Obs> obs) {
        SortedMap<String, List<RunData.Obs>> out = new TreeMap<>();
        if (obs != null) {
            obs.forEach(o -> out.computeIfAbsent(o.block(), k -> new ArrayList<>()).add(o));
        }
        return out;
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b;
    }
}
