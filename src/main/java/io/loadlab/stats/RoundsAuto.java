package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;

/**
 * The stopping rule of {@code loadlab run --rounds auto}: after each round from the third on (a
 * <em>look</em>), every comparison with the baseline is judged by {@link Comparison}'s one rule, and
 * the experiment may stop once each is decided ({@link Verdict#isDecided()}: different, or
 * equivalent). Stateless and thread-safe.
 *
 * <p><b>Why the level is split.</b> Looking after every round and stopping at the first call gives a
 * false call many chances: with 8 looks at α = 5% each, an A/A pair is called different at some look
 * far more often than 5%. The rule spends α across the looks it may make: with at most {@code M}
 * rounds there are {@code K = M - 2} looks (rounds 3 to M), and each look tests at α/K (a
 * Bonferroni split, the simplest alpha-spending function). By the union bound the chance that any
 * look calls a difference between equal groups is at most K · α/K = α, whatever the looks'
 * correlation and whenever the experiment stops; it is conservative, as the looks share their
 * rounds (docs/methodology.md, "Rounds auto").
 *
 * <p>The metric is requests/s ({@code rps}); in a latency sweep the closed-loop capacity runs. The
 * baseline is {@link Comparison#defaultBaseline}. Comparisons without a baseline group can never be
 * decided and do not hold the experiment up.
 */
public final class RoundsAuto {

    /** Rounds before the first look: the rule calls nothing with fewer ({@link Verdicts#MIN_ROUNDS}). */
    public static final int FIRST_LOOK = Verdicts.MIN_ROUNDS;
    /** The metric the looks compare. */
    public static final String METRIC = RunColumn.RPS.id();

    /**
     * One comparison at a look.
     *
     * @param subject  the subject with its variant, as tables show it
     * @param workload the workload
     * @param verdict  the verdict at this look's level
     * @param ratio    mean / the baseline's mean
     * @param pTest    the test's p (held against {@link Look#alphaPerLook()})
     */
    public record Decision(String subject, String workload, Verdict verdict, double ratio, double pTest) {
        public boolean decided() {
            return verdict.isDecided();
        }
    }

    /**
     * What one look found.
     *
     * @param round        the rounds looked at: 1 to this
     * @param alphaPerLook the level of each look's test
     * @param baseline     the baseline subject
     * @param decisions    every comparison with a baseline group, the baseline's own row left out
     * @param measured     whether any run so far succeeded; without one nothing is decided
     */
    public record Look(int round, double alphaPerLook, String baseline, List<Decision> decisions, boolean measured) {
        public Look {
            decisions = List.copyOf(decisions);
        }

        /** Whether every comparison is decided (true with none to decide, once something was measured). */
        public boolean allDecided() {
            return measured && decisions.stream().allMatch(Decision::decided);
        }

        /** {@code 2 of 3 comparisons decided after round 4}. */
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d of %d comparisons decided after round %d",
                    decisions.stream().filter(Decision::decided).count(), decisions.size(), round);
        }
    }

    private RoundsAuto() {
    }

    /**
     * The number of looks with at most {@code maxRounds} rounds: one after each round from
     * {@link #FIRST_LOOK} on.
     *
     * @throws StatsException when {@code maxRounds} is below {@link #FIRST_LOOK}
     */
    public static int looks(int maxRounds) {
        if (maxRounds < FIRST_LOOK) {
            throw new StatsException("rounds auto: the most rounds must be at least " + FIRST_LOOK + ", got " + maxRounds);
        }
        return maxRounds - FIRST_LOOK + 1;
    }

    /**
     * The options of each look: {@code options} with α split evenly over {@link #looks} looks, and
     * everything else, the adjustment for several comparisons included, as given.
     */
    public static CompareOptions perLook(CompareOptions options, int maxRounds) {
        return new CompareOptions(options.alpha() / looks(maxRounds), options.noise(), options.bootstrap(),
                options.seed(), options.adjustment());
    }

    /**
     * Looks at the rounds 1 to {@code round} of a runs table (later rows are ignored).
     *
     * @param runs      the experiment's runs so far, with the columns of runs.csv
     * @param maxRounds the most rounds the experiment may run
     * @param options   the whole experiment's level and thresholds; each look tests at {@link #perLook}
     * @throws StatsException when the runs lack a column of runs.csv
     */
    public static Look look(Table runs, int round, int maxRounds, CompareOptions options) {
        Table upTo = runs.where(runs.numberColumn(RunColumn.ROUND.id()).isLessThanOrEqualTo(round));
        Table compared = SweepRuns.present(upTo) ? SweepRuns.closedLoop(upTo).runs() : upTo;
        CompareOptions level = perLook(options, maxRounds);
        if (RunData.of(compared).okRows().isEmpty()) {
            return new Look(round, level.alpha(), "", List.of(), false);
        }
        String baseline = Comparison.defaultBaseline(compared);
        List<Decision> decisions = new ArrayList<>();
        for (ComparisonRow r : Comparison.rows(compared, METRIC, baseline, level)) {
            if (r.verdict() != Verdict.BASELINE && r.verdict() != Verdict.NO_BASELINE) {
                decisions.add(new Decision(io.loadlab.data.Group.subjectLabel(r.subject(), r.variant()), r.workload(),
                        r.verdict(), r.ratio(), r.pTest()));
            }
        }
        return new Look(round, level.alpha(), baseline, decisions, true);
    }

    /**
     * The verdict of one look at two groups' values of the same rounds (one each, in round order),
     * by the same rule as {@link #look}: for simulations of the rule's error rates.
     */
    static Verdict verdict(double[] a, double[] b, int maxRounds, CompareOptions options) {
        List<RunData.Obs> x = new ArrayList<>();
        List<RunData.Obs> y = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            x.add(new RunData.Obs(i, Integer.toString(i + 1), i + 1, a[i]));
            y.add(new RunData.Obs(i, Integer.toString(i + 1), i + 1, b[i]));
        }
        return Verdicts.judge(x, y, Direction.of(METRIC), perLook(options, maxRounds), "baseline").verdict();
    }
}
