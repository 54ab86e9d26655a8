package io.loadlab.cli;

import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.format.Figure;
import io.loadlab.format.TextTable;
import io.loadlab.format.Units;
import io.loadlab.stats.Adjustment;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.ComparisonRow;
import io.loadlab.stats.PercentileRatios;
import io.loadlab.stats.Protocols;
import io.loadlab.stats.SweepRuns;
import io.loadlab.stats.Warning;
import io.loadlab.stats.WarningOptions;
import io.loadlab.stats.Warnings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tech.tablesaw.api.Table;

/** {@code loadlab compare}: every subject against a baseline, across rounds, with warnings. */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Compare subjects with a baseline across the rounds of one experiment, or reconcile",
                "two or more experiments.",
                "",
                "One DIR (or --pool DIR...: the folders' runs as one experiment): per subject and workload, the",
                "mean with its 95%% CI, the ratio to the baseline with a bootstrap 95%% CI, the test (paired by",
                "round, else Welch) and Mann-Whitney p-values, and a verdict with 3 rounds or more: a difference",
                "when the ratio's CI lies outside 1 +- the noise threshold and p < 0.05 after Holm's adjustment",
                "within the workload (p_holm; --no-adjust); equivalent when its 90%% CI lies inside the band (two",
                "one-sided tests); else undecided, with the smallest difference the rounds could detect (mdd, 80%%",
                "power) and about how many rounds would decide it (docs/methodology.md).",
                "Warnings follow (docs/methodology.md lists them). Runs of wrk, h2load or oha (loadlab run --engine),",
                "and runs at other connection counts or rates, are variants of their subject, e.g.",
                "go-nethttp [engine=wrk].",
                "",
                "With --engines: each engine against the built-in one on the same subject and workload, and",
                "whether each engine orders the subjects as the built-in engine does (several DIRs are pooled).",
                "",
                "Two or more DIRs (from this machine or others, imported ones included): each experiment on its",
                "own, the others held against the first (A). The environment and set-up side by side (the",
                "differences marked, and what one did not record), the order of the subjects per workload in",
                "each and the pairs that swap, and for every pair of subjects the ratio of ratios",
                "(X/Y in A) / (X/Y in B) with a bootstrap 95%% CI. Two experiments disagree on a pair only with",
                "3 rounds or more of both subjects in each, when that CI lies outside 1 +- the noise threshold",
                "and Welch's t-test of the log ratios gives p < 0.05. Next to each pair that disagrees: the facts",
                "that differ (connections, CPUs, warm-up, load-bound runs, versions, machine), claiming no cause.",
                "--format csv: one row per pair and workload, the columns workload, subject, baseline, ratio_a,",
                "ratio_b, ratio_of_ratios, ci_low, ci_high, agree first (agree empty with too few rounds).",
                "",
                "An experiment with a latency sweep (loadlab run --latency-sweep, --rates): the table above (and",
                "--format csv) compares its closed-loop capacity runs only (none when the capacities came from",
                "--capacity-from: no table), then its latency section (text format): latency-throughput curves",
                "(p50, p99, p99.9 and service time per rate, CIs over rounds), the knee at the --slo p99",
                "objective, and p99 at equal rates with verdicts. With --format csv, --table curves, knees or",
                "rates writes one of them instead, at full precision (for pandas.read_csv).",
                "",
                "An experiment with protocol variants (loadlab run --variants 'protocol=.*', --protocols): after the",
                "warnings, the cost of protocols: each protocol of a subject (h1-tls, h2-tls, h2c) against the same",
                "subject's h1 runs, in requests per server CPU-second and per second, with the ratio's bootstrap",
                "95%% CI, the test and the same verdict rule; --format csv --table protocols writes it."})
final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Parameters(paramLabel = "DIR", arity = "1..*",
            description = "experiment folders, such as data/sample; two or more are reconciled (see --pool)")
    List<Path> dirs;

    @Option(names = "--baseline", paramLabel = "SUBJECT", description = "baseline subject (default: first by name)")
    String baseline;

    @Option(names = "--metric", paramLabel = "COLUMN",
            description = {"runs.csv column to compare (default: ${DEFAULT-VALUE}); p50, p90, p99 or p99.9 (or their",
                    "lat_pNN_us columns): the per-round ratio of that percentile, paired by round"})
    String metric = RunColumn.RPS.id();

    /** The latency percentile {@code --metric} names, compared by per-round ratios; {@code null} for other metrics. */
    private PercentileRatios.Percentile percentile;

    @Option(names = "--noise", paramLabel = "FRACTION", description = "smallest difference called (default: ${DEFAULT-VALUE})")
    double noise = 0.01;

    @Option(names = "--no-adjust", description = {"do not adjust the p-values for multiplicity (default: Holm's",
            "adjustment within each workload, the subjects against the baseline)"})
    boolean noAdjust;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = {"text (rounded for reading, a summary line per group), csv (full precision), json (one",
                    "experiment's comparison at full precision, schema in docs/guide/analysis.md) or markdown (rounded, to",
                    "paste into a pull request) (default: ${DEFAULT-VALUE})"})
    String format = "text";

    @Option(names = "--fail-if", paramLabel = "VERDICT",
            description = {"exit 1 when a subject's verdict against the baseline is slower, faster or different",
                    "(any called difference), on any workload; the verdict rule stays the same (default: exit 0)"})
    String failIf;

    @Option(names = "--threshold", paramLabel = "P",
            // One string: HelpText rebuilds descriptions of several lines, and its '%%' would then be formatted twice.
            description = "with --fail-if: the ratio must also differ from 1 by at least P, such as 5%% or 0.05 (default: 0)")
    String threshold;

    @Option(names = "--table", paramLabel = "NAME",
            description = {"with --format csv, the table written: main (the comparison above); on a latency sweep",
                    "curves, knees or rates; with protocol variants protocols (default: ${DEFAULT-VALUE})"})
    String table = "main";

    @Option(names = "--slo", paramLabel = "D",
            description = {"p99 objective of a latency sweep's knee (default: the experiment's loadlab run --slo,",
                    "else " + SweepRuns.DEFAULT_SLO_MS + "ms)"})
    String slo;

    @Option(names = "--engines", description = "compare the engines (builtin, wrk, h2load, oha) instead of the subjects")
    boolean engines;

    @Option(names = "--pool", description = "load several DIRs as one experiment instead of reconciling them")
    boolean pool;

    /** An experiment with a latency sweep: the runs the main table compares; {@code null} otherwise. */
    private SweepRuns.ClosedLoop closedLoop;

    @Override
    public Integer call() {
        if (!FORMATS.contains(format)) {
            throw new CliException("--format must be text, csv, json or markdown, got '" + format + "'", Main.EXIT_USAGE);
        }
        checkTable();
        percentile = PercentileRatios.Percentile.parse(metric).or(() -> PercentileRatios.Percentile.ofColumn(metric))
                .orElse(null);
        metric = percentile == null ? metric : percentile.column();
        checkOneComparison();
        java.util.Optional<FailIf> gate = java.util.Optional.ofNullable(failIf).map(f -> FailIf.parse(f, threshold, metric));
        if (dirs.size() > 1 && !pool && !engines) {
            return reconcile();
        }
        Results results = Results.load(dirs.toArray(Path[]::new));
        Table runs = results.runs();
        if (engines) {
            return engines(runs);
        }
        if (table.equals(ProtocolSection.TABLE)) {
            return protocolsCsv(runs);
        }
        boolean sweep = SweepRuns.present(runs);
        checkSweepTable(runs, sweep);
        // A sweep's fixed-rate windows are compared at equal load in its latency section, not as variants here.
        closedLoop = sweep ? SweepRuns.closedLoop(runs) : null;
        Table compared = sweep ? closedLoop.runs() : runs;
        String base = baseline != null ? baseline
                : Comparison.defaultBaseline(compared.rowCount() > 0 ? compared : runs);
        CompareOptions options = options();
        List<ComparisonRow> rows = compared.rowCount() == 0 ? List.of() : percentile != null
                ? PercentileRatios.rows(compared, percentile, base, options) : Comparison.rows(compared, metric, base, options);
        if (rows.isEmpty() && compared.rowCount() > 0) {
            throw new CliException("no successful run has a value in column '" + metric + "' (for example svc_*"
                    + " columns exist only for fixed-rate runs" + (sweep ? ", and a sweep's are in its latency section"
                    : "") + "); choose another --metric", Main.EXIT_USAGE);
        }
        List<Warning> warnings = Warnings.find(runs, metric, WarningOptions.defaults());
        PrintWriter out = commandSpec.commandLine().getOut();
        if (format.equals("json") || format.equals("markdown")) {
            CompareFormats.Compared c = new CompareFormats.Compared(dirs, metric, base, options, rows, warnings);
            if (format.equals("json")) {
                CompareFormats.json(out, c);
            } else {
                CompareFormats.markdown(out, c);
            }
        } else if (format.equals("csv") && !table.equals("main")) {
            SweepSection.csv(out, results, table, base, SweepSection.slo(slo, dirs), options);
        } else if (format.equals("csv")) {
            CompareFormats.csv(out, rows, r -> merged(results, r));
        } else {
            if (rows.isEmpty()) {
                out.printf(Locale.ROOT, "%s: a latency sweep without closed-loop runs (its capacities were given by"
                        + " --capacity-from, or it has only --rates), so no %s table across subjects; its latency"
                        + " section follows.%n", String.join(" ", dirs.stream().map(Path::toString).toList()), metric);
            } else {
                text(out, rows, warnings, base, runs, results, options);
            }
            if (sweep) {
                SweepSection.print(out, results, base, SweepSection.slo(slo, dirs), options);
            }
            if (compared.rowCount() > 0 && Protocols.present(compared)) {
                ProtocolSection.print(out, compared, options);
            }
        }
        out.flush();
        return gate.map(g -> g.exitCode(rows, commandSpec.commandLine().getErr())).orElse(0);
    }

    private static final List<String> FORMATS = List.of("text", "csv", "json", "markdown");

    /** json, markdown and --fail-if: one experiment's comparison with its baseline, not engines or reconciling. */
    private void checkOneComparison() {
        boolean several = engines || (dirs.size() > 1 && !pool) || !table.equals("main");
        if (several && (failIf != null || format.equals("json") || format.equals("markdown"))) {
            throw new CliException((failIf != null ? "--fail-if" : "--format " + format) + " works on one experiment's"
                    + " comparison with its baseline (one DIR, or --pool); not with --engines, --table or several DIRs",
                    Main.EXIT_USAGE);
        }
        if (threshold != null && failIf == null) {
            throw new CliException("--threshold narrows --fail-if; add --fail-if slower, faster or different",
                    Main.EXIT_USAGE);
        }
    }

    /** The comparison's settings: the defaults with {@code --noise} and {@code --no-adjust}. */
    private CompareOptions options() {
        return CompareOptions.defaults().withNoise(noise).withAdjustment(noAdjust ? Adjustment.NONE : Adjustment.HOLM);
    }

    /** {@code --table}: a known name, with {@code --format csv}, on one experiment's subjects. */
    private void checkTable() {
        if (!table.equals("main") && !SweepSection.TABLES.contains(table) && !table.equals(ProtocolSection.TABLE)) {
            throw new CliException("--table must be main, " + String.join(", ", SweepSection.TABLES) + " or "
                    + ProtocolSection.TABLE + ", got '" + table + "'", Main.EXIT_USAGE);
        }
        if (!table.equals("main") && (!format.equals("csv") || engines || (dirs.size() > 1 && !pool))) {
            throw new CliException("--table " + table + " is a table of one experiment's latency sweep or protocols in"
                    + " --format csv (the text format prints them all); not with --engines or several DIRs without"
                    + " --pool", Main.EXIT_USAGE);
        }
    }

    /** A latency sweep's {@code --table}: one that the experiment has. */
    private void checkSweepTable(Table runs, boolean sweep) {
        if (!table.equals("main") && !sweep) {
            throw new CliException("--table " + table + " needs an experiment with a latency sweep (loadlab run"
                    + " --latency-sweep, --rates); " + String.join(" ", dirs.stream().map(Path::toString).toList())
                    + " has none", Main.EXIT_USAGE);
        }
        if (table.equals("rates") && !SweepRuns.hasRates(runs)) {
            throw new CliException("--table rates needs a sweep with absolute rates (loadlab run --rates); this one has"
                    + " only shares of capacity", Main.EXIT_USAGE);
        }
    }

    /** {@code --format csv --table protocols}: the cost of protocols at full precision. */
    private int protocolsCsv(Table runs) {
        if (!Protocols.present(runs)) {
            throw new CliException("--table protocols needs an experiment with protocol variants (loadlab run --variants"
                    + " 'protocol=.*' or --protocols); " + String.join(" ", dirs.stream().map(Path::toString).toList())
                    + " has none", Main.EXIT_USAGE);
        }
        PrintWriter out = commandSpec.commandLine().getOut();
        ProtocolSection.csv(out, runs, CompareOptions.defaults().withNoise(noise));
        out.flush();
        return 0;
    }

    /** Two or more experiments held against the first: text (with the environment) or CSV. */
    private int reconcile() {
        CompareOptions options = CompareOptions.defaults().withNoise(noise);
        io.loadlab.stats.Reconciliation r = io.loadlab.stats.Reconcile.load(dirs, metric, baseline, options);
        PrintWriter out = commandSpec.commandLine().getOut();
        if (format.equals("csv")) {
            ReconcileOutput.csv(out, r);
        } else {
            ReconcileOutput.text(out, r);
        }
        out.flush();
        return 0;
    }

    /** {@code --engines}: the engine comparison and rankings, as text or CSV. */
    private int engines(Table runs) {
        CompareEngines.print(commandSpec.commandLine().getOut(), runs, metric,
                CompareOptions.defaults().withNoise(noise), format.equals("csv"));
        return 0;
    }

    /**
     * For a latency percentile column ({@code lat_p99_us}...), the percentile of all the group's
     * requests from the merged histograms: the figure to report, where the mean of the rounds'
     * percentiles only feeds the tests. Empty for other metrics.
     */
    private String merged(Results results, ComparisonRow r) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("lat_p(\\d+)_us").matcher(metric);
        if (!m.matches()) {
            return "";
        }
        String digits = m.group(1);
        double p = Double.parseDouble(digits.length() <= 2 ? digits : digits.substring(0, 2) + "." + digits.substring(2));
        String variant = closedLoop == null ? r.variant() : closedLoop.variantAmongAll(r.subject(), r.variant(), r.workload());
        org.HdrHistogram.Histogram h = results.latency(r.subject(), variant, r.workload());
        return h.getTotalCount() == 0 ? "" : Long.toString(h.getValueAtPercentile(p));
    }

    private static String[] drop(String[] row, int index) {
        List<String> cells = new ArrayList<>(List.of(row));
        cells.remove(index);
        return cells.toArray(String[]::new);
    }

    /**
     * A number for CSV; NaN (undefined) is left empty, an infinity is {@code inf} or {@code -inf}
     * (pandas and NumPy read both), such as rounds advised past the search's cap.
     */
    static String n(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return Double.isNaN(v) ? "" : io.loadlab.data.RunRow.num(v);
    }

    static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    private void text(PrintWriter out, List<ComparisonRow> rows, List<Warning> warnings, String base, Table runs,
                      Results results, CompareOptions options) {
        boolean hasMerged = !rows.isEmpty() && !merged(results, rows.get(0)).isEmpty();
        out.printf(Locale.ROOT, "%s across rounds, baseline %s (%s: %d runs, %d ok)%n%n", metric, base,
                String.join(" ", dirs.stream().map(Path::toString).toList()), runs.rowCount(),
                runs.where(runs.stringColumn(RunColumn.STATUS.id()).isEqualTo(RunColumn.Status.OK.value())).rowCount());
        if (closedLoop != null) {
            out.printf(Locale.ROOT, "A latency sweep: this table holds its closed-loop capacity runs only (%d of %d"
                    + " runs); its fixed-rate windows are compared at equal load in the latency section below.%n%n",
                    closedLoop.runs().rowCount(), runs.rowCount());
        }
        List<String[]> table = new ArrayList<>();
        List<ComparisonRow> sorted = new ArrayList<>(rows);
        // Read by workload: the baseline first, then the others by name.
        sorted.sort(java.util.Comparator.comparing(ComparisonRow::workload)
                .thenComparing(r -> !r.verdict().label().equals("baseline"))
                .thenComparing(ComparisonRow::subject).thenComparing(ComparisonRow::variant));
        Figure figure = Figure.of(metric);
        for (ComparisonRow r : sorted) {
            String name = r.variant().isEmpty() ? r.subject() : r.subject() + " [" + r.variant() + "]";
            String merged = merged(results, r);
            table.add(new String[] {r.workload(), name, Integer.toString(r.n()), figure.format(r.mean()),
                    Double.isNaN(r.ciHigh()) ? "" : "± " + figure.format((r.ciHigh() - r.ciLow()) / 2),
                    r.mean() == 0 ? "" : Units.percent(r.sd() / r.mean()), Units.ratio(r.ratio()),
                    Units.interval(r.ratioCiLow(), r.ratioCiHigh(), Figure.RATIO), r.design().label(),
                    Units.p(r.pTest()), Units.p(r.pAdjusted()), Units.p(r.pMannWhitney()), r.verdictText(),
                    merged.isEmpty() ? "" : Units.integer(Double.parseDouble(merged))});
        }
        List<String> header = new ArrayList<>(List.of("workload", "subject", "n", "mean", "95% CI", "CV", "ratio",
                "ratio 95% CI", "test", "p_test", "p_" + options.adjustment().label(), "p_mw", "verdict"));
        if (hasMerged) {
            header.add("merged");
        } else {
            table.replaceAll(row -> java.util.Arrays.copyOf(row, row.length - 1));
        }
        if (options.adjustment() == Adjustment.NONE) {
            // Unadjusted, the adjusted p is p_test again: one column says it.
            int at = header.indexOf("p_" + Adjustment.NONE.label());
            header.remove(at);
            table.replaceAll(row -> drop(row, at));
        }
        TextTable.print(out, header.toArray(String[]::new), table, 2);
        out.printf(Locale.ROOT, "%n");
        io.loadlab.stats.Sentences.of(rows).forEach(out::println);
        if (hasMerged) {
            out.printf(Locale.ROOT, "%nmean: the mean over rounds of each round's %s (their spread, not a percentile);"
                    + " merged: the same percentile of all requests of all rounds, from the merged histograms"
                    + " (the figure to report).%n", metric);
        }
        if (percentile != null) {
            out.println(PercentileRatios.rule(percentile));
        }
        out.println();
        if (warnings.isEmpty()) {
            out.println("No warnings.");
        } else {
            out.printf(Locale.ROOT, "Warnings (%d)%n", warnings.size());
            for (Warning w : warnings) {
                out.printf(Locale.ROOT, "  %-16s %s%n", w.kind(), w.message());
            }
        }
        out.printf(Locale.ROOT, "%n%s%n", Comparison.rule(options));
    }
}
