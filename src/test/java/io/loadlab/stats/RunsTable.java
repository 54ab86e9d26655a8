package io.loadlab.stats;

import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Builds runs tables with the columns of runs.csv that the statistics read. */
final class RunsTable {

    private final StringColumn experiment = StringColumn.create("experiment");
    private final StringColumn subject = StringColumn.create("subject");
    private final StringColumn variant = StringColumn.create("variant");
    private final StringColumn workload = StringColumn.create("workload");
    private final StringColumn status = StringColumn.create("status");
    private final IntColumn round = IntColumn.create("round");
    private final BooleanColumn loadBound = BooleanColumn.create("load_bound");
    private final DoubleColumn metric;
    private final DoubleColumn errorsConnect = DoubleColumn.create("errors_connect");
    private final DoubleColumn errorsTimeout = DoubleColumn.create("errors_timeout");
    private String experimentName = "exp";

    RunsTable(String metricName) {
        metric = DoubleColumn.create(metricName);
    }

    /** The experiment of the rows added next ("exp" until set). */
    RunsTable experiment(String name) {
        experimentName = name;
        return this;
    }

    /** Successful rounds 1, 2, ... of a group without variant. */
    RunsTable group(String subjectName, String workloadName, double... values) {
        return group(subjectName, "", workloadName, values);
    }

    RunsTable group(String subjectName, String variantName, String workloadName, double... values) {
        for (int i = 0; i < values.length; i++) {
            row(subjectName, variantName, workloadName, i + 1, "ok", values[i], false, 0, 0);
        }
        return this;
    }

    /** One run; a NaN value is appended as missing, a null loadBound as missing. */
    RunsTable row(String subjectName, String variantName, String workloadName, int roundNumber, String statusName,
                  double value, Boolean bound, double connectErrors, double timeoutErrors) {
        experiment.append(experimentName);
        subject.append(subjectName);
        variant.append(variantName);
        workload.append(workloadName);
        status.append(statusName);
        round.append(roundNumber);
        if (bound == null) {
            loadBound.appendMissing();
        } else {
            loadBound.append(bound.booleanValue());
        }
        metric.append(value);
        errorsConnect.append(connectErrors);
        errorsTimeout.append(timeoutErrors);
        return this;
    }

    Table table() {
        return Table.create("runs", experiment, subject, variant, workload, status, round, loadBound, metric,
                errorsConnect, errorsTimeout).copy();
    }
}
