package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** The columns of {@link Protocols#compare}, filled row by row. Not thread-safe. */
final class ProtocolTable {
    private final StringColumn subject = StringColumn.create(RunColumn.SUBJECT.id());
    private final StringColumn variant = StringColumn.create(RunColumn.VARIANT.id());
    private final StringColumn workload = StringColumn.create(RunColumn.WORKLOAD.id());
    private final StringColumn protocol = StringColumn.create(RunColumn.PROTOCOL.id());
    private final StringColumn metricName = StringColumn.create(StatsColumn.METRIC.id());
    private final IntColumn n = IntColumn.create(StatsColumn.N.id());
    private final DoubleColumn mean = DoubleColumn.create(StatsColumn.MEAN.id());
    private final DoubleColumn cv = DoubleColumn.create(StatsColumn.CV.id());
    private final IntColumn h1N = IntColumn.create(StatsColumn.H1_N.id());
    private final DoubleColumn h1Mean = DoubleColumn.create(StatsColumn.H1_MEAN.id());
    private final DoubleColumn h1Cv = DoubleColumn.create(StatsColumn.H1_CV.id());
    private final DoubleColumn ratio = DoubleColumn.create(StatsColumn.RATIO.id());
    private final DoubleColumn low = DoubleColumn.create(StatsColumn.RATIO_CI_LOW.id());
    private final DoubleColumn high = DoubleColumn.create(StatsColumn.RATIO_CI_HIGH.id());
    private final StringColumn test = StringColumn.create(StatsColumn.TEST.id());
    private final DoubleColumn pTest = DoubleColumn.create(StatsColumn.P_TEST.id());
    private final DoubleColumn pWelch = DoubleColumn.create(StatsColumn.P_WELCH.id());
    private final StringColumn verdict = StringColumn.create(StatsColumn.VERDICT.id());
    private final StringColumn note = StringColumn.create(StatsColumn.NOTE.id());

    /**
     * One row: a protocol's values against h1's.
     *
     * @param h1 h1's values; empty when there are none, and then {@code j} is null
     * @param j  the judgement of a against h1, null without h1 values
     */
    void add(String subjectName, String variantName, String workloadName, String protocolName, String metric,
             List<RunData.Obs> a, List<RunData.Obs> h1, Verdicts.Judgement j, String noteText) {
        subject.append(subjectName);
        variant.append(variantName);
        workload.append(workloadName);
        protocol.append(protocolName);
        metricName.append(metric);
        Summary s = Summary.of(RunData.array(a));
        n.append(s.n());
        mean.append(s.mean());
        cv.append(s.cv());
        h1N.append(h1.size());
        Summary b = h1.isEmpty() ? null : Summary.of(RunData.array(h1));
        h1Mean.append(b == null ? Double.NaN : b.mean());
        h1Cv.append(b == null ? Double.NaN : b.cv());
        ratio.append(j == null ? Double.NaN : j.ratio());
        low.append(j == null ? Double.NaN : j.ratioCiLow());
        high.append(j == null ? Double.NaN : j.ratioCiHigh());
        test.append(j == null ? Design.NONE.label() : j.design().label());
        pTest.append(j == null ? Double.NaN : j.pTest());
        pWelch.append(j == null ? Double.NaN : j.pWelch());
        verdict.append(j == null ? Verdict.NO_BASELINE.label() : j.verdict().label());
        note.append(noteText);
    }

    Table table(String name) {
        return Table.create(name, subject, variant, workload, protocol, metricName, n, mean, cv, h1N, h1Mean, h1Cv,
                ratio, low, high, test, pTest, pWelch, verdict, note);
    }
}
