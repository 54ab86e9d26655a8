package io.loadlab.stats;

import io.loadlab.data.ExperimentRecord;
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
     * engines, experiment_a, experiment_b, note, differences (the facts joined by "; ").
     */
    public Table pairs() {
        StringColumn workload = StringColumn.create("workload");
        StringColumn subject = StringColumn.create("subject");
        StringColumn baseline = StringColumn.create("baseline");
        List<DoubleColumn> figures = List.of(DoubleColumn.create("ratio_a"), DoubleColumn.create("ratio_b"),
                DoubleColumn.create("ratio_of_ratios"), DoubleColumn.create("ci_low"), DoubleColumn.create("ci_high"));
        BooleanColumn agree = BooleanColumn.create("agree");
        StringColumn verdict = StringColumn.create("verdict");
        DoubleColumn p = DoubleColumn.create("p");
        IntColumn nA = IntColumn.create("n_a");
        IntColumn nB = IntColumn.create("n_b");
        List<StringColumn> texts = List.of(StringColumn.create("test_a"), StringColumn.create("test_b"),
                StringColumn.create("engines"), StringColumn.create("experiment_a"), StringColumn.create("experiment_b"),
                StringColumn.create("note"), StringColumn.create("differences"));
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
