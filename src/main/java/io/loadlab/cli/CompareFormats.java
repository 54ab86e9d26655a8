package io.loadlab.cli;

import static io.loadlab.cli.CompareCommand.n;
import static io.loadlab.cli.CompareCommand.quote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadlab.data.Group;
import io.loadlab.data.Json;
import io.loadlab.data.RunColumn;
import io.loadlab.format.Figure;
import io.loadlab.format.Units;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.ComparisonRow;
import io.loadlab.stats.Sentences;
import io.loadlab.stats.StatsColumn;
import io.loadlab.stats.Warning;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code loadlab compare --format csv}, {@code json} and {@code markdown}: one experiment's comparison
 * with its baseline, for programs (CSV and JSON, full precision; the JSON schema in
 * {@code docs/guide/analysis.md}) and for pull requests (Markdown, rounded as the text table). The field names are the CSV columns'
 * ({@link StatsColumn}, {@link RunColumn}), so that the three machine forms agree.
 */
final class CompareFormats {

    /** {@code schema} of the JSON document: what a reader checks before anything else. */
    static final String SCHEMA = "loadlab-compare";
    /** Raised when a field changes meaning or goes; adding a field keeps it. */
    static final int VERSION = 1;

    /**
     * What was compared.
     *
     * @param dirs     the experiment folders
     * @param metric   the runs.csv column compared
     * @param baseline the baseline as given or chosen
     * @param options  the thresholds of the verdict rule
     * @param rows     the comparison's rows
     * @param warnings the warnings on the runs
     */
    record Compared(List<Path> dirs, String metric, String baseline, CompareOptions options,
                    List<ComparisonRow> rows, List<Warning> warnings) {
    }

    private CompareFormats() {
    }

    /** The columns of {@code --format csv}: the comparison's ({@link Comparison#compare}), with the merged percentile. */
    static final String[] CSV_COLUMNS = {RunColumn.SUBJECT.id(), RunColumn.WORKLOAD.id(),
        StatsColumn.METRIC.id(), StatsColumn.N.id(), StatsColumn.MEAN.id(), StatsColumn.SD.id(), StatsColumn.CI_LOW.id(),
        StatsColumn.CI_HIGH.id(), StatsColumn.RATIO.id(), StatsColumn.RATIO_CI_LOW.id(), StatsColumn.RATIO_CI_HIGH.id(),
        StatsColumn.P_WELCH.id(), StatsColumn.P_MANNWHITNEY.id(), StatsColumn.VERDICT.id(), RunColumn.VARIANT.id(),
        StatsColumn.BASELINE.id(), StatsColumn.NOTE.id(), "merged_us", StatsColumn.TEST.id(), StatsColumn.P_TEST.id(),
        StatsColumn.P_ADJUSTED.id(), StatsColumn.ADJUSTMENT.id(), StatsColumn.P_EQUIVALENCE.id(),
        StatsColumn.SMALLEST_DETECTABLE.id(), StatsColumn.ROUNDS_ADVISED.id()};

    /** {@code --format csv} of the main table: the comparison's columns, with the merged percentile ({@code merged}: "" for none). */
    static void csv(PrintWriter out, List<ComparisonRow> rows, Function<ComparisonRow, String> merged) {
        out.println(String.join(",", CSV_COLUMNS));
        for (ComparisonRow r : rows) {
            out.println(String.join(",", List.of(quote(r.subject()), quote(r.workload()), quote(r.metric()),
                    Integer.toString(r.n()), n(r.mean()), n(r.sd()), n(r.ciLow()), n(r.ciHigh()), n(r.ratio()),
                    n(r.ratioCiLow()), n(r.ratioCiHigh()), n(r.pWelch()), n(r.pMannWhitney()), r.verdict().label(),
                    quote(r.variant()), quote(r.baseline()), quote(r.note()), merged.apply(r), r.design().label(),
                    n(r.pTest()), n(r.pAdjusted()), r.adjustment().label(), n(r.pEquivalence()),
                    n(r.smallestDetectable()), n(r.roundsAdvised()))));
        }
    }

    /** The JSON document, indented, with a final newline. */
    static void json(PrintWriter out, Compared c) {
        ObjectNode root = Json.mapper().createObjectNode();
        root.put("schema", SCHEMA);
        root.put("version", VERSION);
        ArrayNode dirs = root.putArray("experiments");
        c.dirs().forEach(d -> dirs.add(d.toString()));
        root.put(StatsColumn.METRIC.id(), c.metric());
        root.put(StatsColumn.BASELINE.id(), c.baseline());
        root.put("alpha", c.options().alpha());
        root.put("noise", c.options().noise());
        root.put("rule", Comparison.rule(c.options()));
        ArrayNode groups = root.putArray("groups");
        for (ComparisonRow r : Sentences.readingOrder(c.rows())) {
            groups.add(group(r, c.rows()));
        }
        ArrayNode warnings = root.putArray("warnings");
        for (Warning w : c.warnings()) {
            ObjectNode o = warnings.addObject();
            o.put("kind", w.kind());
            o.put(RunColumn.SUBJECT.id(), w.subject());
            o.put(RunColumn.VARIANT.id(), w.variant());
            o.put(RunColumn.WORKLOAD.id(), w.workload());
            ArrayNode rounds = o.putArray("rounds");
            w.rounds().forEach(rounds::add);
            o.put("message", w.message());
        }
        try {
            out.println(Json.mapper().writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serialises", e);
        }
    }

    private static ObjectNode group(ComparisonRow r, List<ComparisonRow> rows) {
        ObjectNode o = Json.mapper().createObjectNode();
        o.put(RunColumn.SUBJECT.id(), r.subject());
        o.put(RunColumn.VARIANT.id(), r.variant());
        o.put(RunColumn.WORKLOAD.id(), r.workload());
        o.put(StatsColumn.N.id(), r.n());
        number(o, StatsColumn.MEAN.id(), r.mean());
        number(o, StatsColumn.SD.id(), r.sd());
        number(o, StatsColumn.CI_LOW.id(), r.ciLow());
        number(o, StatsColumn.CI_HIGH.id(), r.ciHigh());
        number(o, StatsColumn.RATIO.id(), r.ratio());
        number(o, StatsColumn.RATIO_CI_LOW.id(), r.ratioCiLow());
        number(o, StatsColumn.RATIO_CI_HIGH.id(), r.ratioCiHigh());
        o.put(StatsColumn.TEST.id(), r.design().label());
        number(o, StatsColumn.P_TEST.id(), r.pTest());
        number(o, StatsColumn.P_ADJUSTED.id(), r.pAdjusted());
        o.put(StatsColumn.ADJUSTMENT.id(), r.adjustment().label());
        number(o, StatsColumn.P_EQUIVALENCE.id(), r.pEquivalence());
        number(o, StatsColumn.SMALLEST_DETECTABLE.id(), r.smallestDetectable());
        number(o, StatsColumn.ROUNDS_ADVISED.id(), r.roundsAdvised());
        number(o, StatsColumn.P_WELCH.id(), r.pWelch());
        number(o, StatsColumn.P_MANNWHITNEY.id(), r.pMannWhitney());
        o.put(StatsColumn.VERDICT.id(), r.verdict().label());
        o.put(StatsColumn.BASELINE.id(), r.baseline());
        o.put(StatsColumn.NOTE.id(), r.note());
        Optional<ComparisonRow> base = Sentences.baselineRow(rows, r);
        if (r.verdict() == io.loadlab.stats.Verdict.BASELINE) {
            o.putNull("summary");
        } else {
            o.put("summary", Sentences.of(r, base));
        }
        return o;
    }

    /** A number, or null where it is undefined (NaN): JSON has no NaN. */
    private static void number(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        } else {
            o.putNull(field);
        }
    }

    /** A Markdown section for a pull request: the sentences, a table rounded for reading, the warnings, the rule. */
    static void markdown(PrintWriter out, Compared c) {
        out.printf(Locale.ROOT, "### %s against %s%n%n", code(c.metric()), code(c.baseline()));
        out.printf(Locale.ROOT, "%s%n%n", String.join(", ", c.dirs().stream().map(d -> code(d.toString())).toList()));
        for (String s : Sentences.of(c.rows())) {
            out.printf(Locale.ROOT, "- %s%n", cell(s));
        }
        out.println();
        out.println("| workload | subject | n | mean | 95% CI | ratio | ratio 95% CI | test | p | verdict |");
        out.println("|---|---|--:|--:|--:|--:|---|---|--:|---|");
        Figure figure = Figure.of(c.metric());
        for (ComparisonRow r : Sentences.readingOrder(c.rows())) {
            out.printf(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |%n", cell(r.workload()),
                    cell(Group.subjectLabel(r.subject(), r.variant())), r.n(), figure.format(r.mean()),
                    Double.isNaN(r.ciHigh()) ? "" : "± " + figure.format((r.ciHigh() - r.ciLow()) / 2),
                    Units.ratio(r.ratio()), Units.interval(r.ratioCiLow(), r.ratioCiHigh(), Figure.RATIO),
                    r.design().label(), Units.p(r.pTest()), cell(r.verdictText()));
        }
        out.println();
        if (c.warnings().isEmpty()) {
            out.println("No warnings.");
        } else {
            out.printf(Locale.ROOT, "<details><summary>Warnings (%d)</summary>%n%n", c.warnings().size());
            for (Warning w : c.warnings()) {
                out.printf(Locale.ROOT, "- **%s** %s%n", w.kind(), cell(w.message()));
            }
            out.printf(Locale.ROOT, "%n</details>%n");
        }
        out.printf(Locale.ROOT, "%n_%s_%n", cell(Comparison.rule(c.options())));
    }

    /** Text safe in a Markdown table cell or list item: pipes escaped, no line breaks. */
    static String cell(String s) {
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("_", "\\_").replace("\n", " ");
    }

    private static String code(String s) {
        return "`" + s.replace("`", "'") + "`";
    }
}
