package io.loadlab.stats;

import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * How the p-values of one family of comparisons (one workload and metric: every group against the
 * baseline) are adjusted for multiplicity before a difference is called. With six subjects all
 * the same as the baseline, six tests at alpha 0.05 would call at least one difference in about
 * 26% of experiments; Holm's step-down procedure (Holm 1979) keeps that family-wise rate at or
 * below alpha under any dependence between the tests, and never calls less than Bonferroni.
 */
public enum Adjustment {
    /** Holm's step-down procedure: the default. */
    HOLM("holm"),
    /** No adjustment ({@code compare --no-adjust}): each comparison at alpha on its own. */
    NONE("none");

    private final String label;

    Adjustment(String label) {
        this.label = label;
    }

    /** Lower-case name, as in the {@code adjustment} column. */
    public String label() {
        return label;
    }

    /**
     * The adjusted p-values, in the order given. Holm: sort the m p-values ascending, p_(i) becomes
     * max over j &le; i of min(1, (m &minus; j + 1) &middot; p_(j)); NaN values (no test made) are
     * left out of m and stay NaN. The same as R's {@code p.adjust(p, "holm")} and statsmodels'
     * {@code multipletests(p, method="holm")}.
     *
     * @param p raw two-sided p-values, NaN where no test was made; not modified
     * @return adjusted p-values, each at least its raw one
     */
    public double[] adjust(double[] p) {
        double[] out = p.clone();
        if (this == NONE) {
            return out;
        }
        Integer[] order = IntStream.range(0, p.length).filter(i -> !Double.isNaN(p[i])).boxed()
                .sorted(Comparator.comparingDouble(i -> p[i])).toArray(Integer[]::new);
        int m = order.length;
        double running = 0;
        for (int rank = 0; rank < m; rank++) {
            int i = order[rank];
            running = Math.max(running, Math.min(1, (m - rank) * p[i]));
            out[i] = running;
        }
        return out;
    }
}
