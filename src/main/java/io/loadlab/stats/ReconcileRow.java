package io.loadlab.stats;

import io.loadlab.format.Figure;
import io.loadlab.format.Units;
import java.util.List;
import java.util.Locale;

/**
 * One pair of subjects held against itself in two experiments: X / Y in A, X / Y in B, and
 * their ratio with its bootstrap CI and test. NaN marks an undefined figure (fewer than 2 rounds).
 *
 * @param workload       the workload
 * @param subject        X, with its variant in brackets when it has one
 * @param baseline       Y, the same way
 * @param experimentA    the name of the experiment whose ratio is the numerator ({@code A})
 * @param experimentB    the other one ({@code B}, {@code C}...)
 * @param engines        the engine of the runs ({@code builtin}), or {@code builtin / wrk} when A
 *                       and B measured these subjects with different engines
 * @param ratioA         mean(X) / mean(Y) in A
 * @param ratioB         the same in B
 * @param ratioOfRatios  ratioA / ratioB: above 1, X did relatively better in A
 * @param ciLow          lower end of the ratio of ratios' 95% bootstrap CI
 * @param ciHigh         upper end
 * @param p              two-sided p of Welch's t-test of the two log ratios
 * @param nA             rounds of both subjects in A (the smaller count); {@code nB} in B
 * @param testA          how A's ratio was resampled and estimated ({@code paired} by round, or
 *                       {@code welch}); {@code testB} for B
 * @param agreement      the outcome of the rule
 * @param note           why, where that is not obvious; "" otherwise
 * @param differences    for a disagreement, the facts that differ between the experiments for
 *                       this pair (settings of its runs, versions, machine); empty otherwise
 */
public record ReconcileRow(String workload, String subject, String baseline, String experimentA, String experimentB,
                           String engines, double ratioA, double ratioB, double ratioOfRatios, double ciLow,
                           double ciHigh, double p, int nA, int nB, Design testA, Design testB, Agreement agreement,
                           String note, List<String> differences) {

    public ReconcileRow {
        if (workload == null || subject == null || baseline == null || agreement == null || note == null) {
            throw new StatsException("reconcile row: workload, subject, baseline, agreement and note must not be null");
        }
        differences = List.copyOf(differences);
    }

    /** Whether the ratios swap sides of 1: X ahead of Y in one experiment and behind in the other. */
    public boolean swapped() {
        return (ratioA - 1) * (ratioB - 1) < 0;
    }

    /**
     * One line rounded for reading, such as {@code plaintext java-netty / go-nethttp: 1.45 in A,
     * 0.612 in B, A/B 2.37 [2.01, 2.80], p 0.0021: disagree (3 facts differ)}.
     */
    @Override
    public String toString() {
        String s = String.format(Locale.ROOT, "%s %s / %s: %s in %s, %s in %s, %s/%s %s %s, p %s: %s", workload, subject,
                baseline, Units.ratio(ratioA), experimentA, Units.ratio(ratioB), experimentB, experimentA, experimentB,
                Units.ratio(ratioOfRatios), Units.interval(ciLow, ciHigh, Figure.RATIO), Units.p(p), agreement.label());
        if (agreement == Agreement.DISAGREE) {
            return s + " (" + differences.size() + " fact" + (differences.size() == 1 ? "" : "s") + " differ)";
        }
        return note.isEmpty() ? s : s + " (" + note + ")";
    }
}
