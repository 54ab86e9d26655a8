package io.loadlab.stats;

import io.loadlab.data.ExperimentRecord;
import io.loadlab.data.RunColumn;
import java.util.Arrays;
import java.util.List;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * What {@link Reconcile} found: the experiments (named A, B, ...), their environment side by side,
 * the subjects' order per workload in each, and one row per pair of subjects and workload.
 *
 * @param labels      the experiments' names in the tables, {@code A}, {@code B}, ...
 * @param records     what each experiment.json says, in the same order
 * @param metric      the metric reconciled
 * @param environment columns item, one per experiment (A, B, ...), differs
 * @param rankings    columns workload, experiments ({@code A vs B}), engines, order_a, order_b
 *                    (best first), same_order, swapped (the pairs on opposite sides of 1), only_in_a,
 *                    only_in_b (subjects measured in one experiment only)
 * @param rows        the pairs, by experiment, workload, baseline and subject
 * @param rule        the rule, in one sentence
 */
public record Reconciliation(List<String> labels, List<ExperimentRecord> records, String metric, Table environment,
                             Table rankings, List<ReconcileRow> rows, String rule) {

    /**
     * The columns of {@link #pairs()}, in order (the documented ones first); {@code compare --format csv}
     * of several experiments writes the same columns.
     */
    public static final List<String> PAIR_COLUMNS = List.of(RunColumn.WORKLOAD.id(), RunColumn.SUBJECT.id(),
            StatsColumn.BASELINE.id(), StatsColumn.RATIO_A.id(), StatsColumn.RATIO_B.id(),
            StatsColumn.RATIO_OF_RATIOS.id(), StatsColumn.CI_LOW.id(), StatsColumn.CI_HIGH.id(), StatsColumn.AGREE.id(),
            StatsColumn.VERDICT.id(), StatsColumn.P.id(), StatsColumn.N_A.id(), StatsColumn.N_B.id(),
            StatsColumn.TEST_A.id(), StatsColumn.TEST_B.id(), StatsColumn.ENGINES.id(), StatsColumn.EXPERIMENT_A.id(),
            StatsColumn.EXPERIMENT_B.id(), StatsColumn.NOTE.id(), StatsColumn.DIFFERENCES.id());

    public Reconciliation {
        labels = List.copyOf(labels);
        records = List.copyOf(records);
        rows = List.copyOf(rows);
    }

    /** The rows where two experiments disagree beyond their noise. */
    public List<ReconcileRow> disagreements() {
        return rows.stream().filter(r -> r.agreement() == Agreement.DISAGREE).toList();
    }

    /**
     * The pairs as a table: workload, subject, baseline, ratio_a, ratio_b, ratio_of_ratios, ci_low,
     * ci_high, agree (missing with too few rounds), then verdict, p, n_a, n_b, test_a, test_b,
     * engines, experiment_a, experiment_b, note, differences (the facts joined by "; "): the
     * columns of {@link #PAIR_COLUMNS}.
     */
    public Table pairs() {
        StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
        StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
        StringColumn baseline = StringColumn.create(StatsColumn.BASELINE.id());
        List<DoubleColumn> figures = doubles(StatsColumn.RATIO_A, StatsColumn.RATIO_B, StatsColumn.RATIO_OF_RATIOS,
                StatsColumn.CI_LOW, StatsColumn.CI_HIGH);
        BooleanColumn agree = BooleanColumn.create(StatsColumn.AGREE.id());
        StringColumn verdict = StringColumn.create(StatsColumn.VERDICT.id());
        DoubleColumn p = DoubleColumn.create(StatsColumn.P.id());
        IntColumn nA = IntColumn.create(StatsColumn.N_A.id());
        IntColumn nB = IntColumn.create(StatsColumn.N_B.id());
        List<StringColumn> texts = texts(StatsColumn.TEST_A, StatsColumn.TEST_B, StatsColumn.ENGINES,
                StatsColumn.EXPERIMENT_A, StatsColumn.EXPERIMENT_B, StatsColumn.NOTE, StatsColumn.DIFFERENCES);
        for (ReconcileRow r : rows) {
            workload.append(r.workload());
            subject.append(r.subject());
            baseline.append(r.baseline());
            double[] v = {r.ratioA(), r.ratioB(), r.ratioOfRatios(), r.ciLow(), r.ciHigh()};
            for (int i = 0; i < v.length; i++) {
                figures.get(i).append(v[i]);
            }
            r.agreement().agree().ifPresentOrElse(agree::append, agree::appendMissing);
            verdict.append(r.agreement().label());
            p.append(r.p());
            nA.append(r.nA());
            nB.append(r.nB());
            String[] t = {r.testA().label(), r.testB().label(), r.engines(), r.experimentA(), r.experimentB(), r.note(),
                String.join("; ", r.differences())};
            for (int i = 0; i < t.length; i++) {
                texts.get(i).append(t[i]);
            }
        }
        Table table = Table.create(metric + " ratio of ratios", workload, subject, baseline);
        figures.forEach(table::addColumns);
        table.addColumns(agree, verdict, p, nA, nB);
        texts.forEach(table::addColumns);
        return table;
    }

    private static List<DoubleColumn> doubles(StatsColumn... columns) {
        return Arrays.stream(columns).map(c -> DoubleColumn.create(c.id())).toList();
    }

    private static List<StringColumn> texts(StatsColumn... columns) {
        return Arrays.stream(columns).map(c -> StringColumn.create(c.id())).toList();
    }

    /** {@code Reconciliation[rps of A = sample, B = sample-engines: 9 pairs, 2 disagree]}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Reconciliation[").append(metric).append(" of ");
        for (int i = 0; i < labels.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(labels.get(i)).append(" = ").append(records.get(i).name());
        }
        return b.append(": ").append(rows.size()).append(" pair").append(rows.size() == 1 ? "" : "s").append(", ")
                .append(disagreements().size()).append(" disagree]").toString();
    }
}
