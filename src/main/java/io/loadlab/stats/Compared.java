package io.loadlab.stats;

import java.util.List;
import tech.tablesaw.api.Table;

/**
 * One comparison with a baseline, as JShell and notebooks ask for it
 * ({@code results.compare("go-nethttp")}): its rows, its table, and one sentence per group, which is
 * also how it prints.
 *
 * @param metric   the runs.csv column compared
 * @param baseline the baseline as given
 * @param rows     the rows of {@link Comparison#rows}
 * @param warnings the warnings on the runs for this metric ({@link Warnings#find})
 */
public record Compared(String metric, String baseline, List<ComparisonRow> rows, List<Warning> warnings) {

    public Compared {
        if (metric == null || baseline == null || rows == null || warnings == null) {
            throw new StatsException("a comparison needs its metric, baseline, rows and warnings");
        }
        rows = List.copyOf(rows);
        warnings = List.copyOf(warnings);
    }

    /** The comparison as a table ({@link Comparison#toTable}). */
    public Table table() {
        return Comparison.toTable(metric, rows);
    }

    /** One sentence per group against the baseline ({@link Sentences#of(List)}). */
    public List<String> sentences() {
        return Sentences.of(rows);
    }

    /** The sentences, one a line, then how many warnings there are: what JShell shows. */
    @Override
    public String toString() {
        return String.join("\n", sentences()) + (warnings.isEmpty() ? "" : "\n(" + warnings.size() + " warning"
                + (warnings.size() == 1 ? "" : "s") + "; warnings() lists them)");
    }
}
