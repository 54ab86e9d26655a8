/**
 * How numbers are shown to people, everywhere: one rounding per kind of figure, and tables as text.
 * {@link io.loadlab.format.Units} holds the rules; {@link io.loadlab.format.Figure} names the kinds of
 * figure and tells a column's kind from its name; {@link io.loadlab.format.ShownTable} is a Tablesaw
 * table as a person reads it (its first {@link io.loadlab.format.ShownTable#MAX_ROWS} rows, rounded);
 * {@link io.loadlab.format.TextTable} aligns plain text tables for the terminal and JShell; and
 * {@code FigureFormatter} is a {@link io.loadlab.format.Figure} as a Tablesaw print formatter.
 *
 * <p>It uses nothing of Loadlab's (only Tablesaw): {@code load}, {@code load.summary}, {@code stats},
 * {@code plot}, {@code experiment}, {@code kernel} and {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>One mechanism rounds every number a person reads: in the terminal ({@code compare}, {@code run},
 *       {@code demo}, {@code import}, {@code load}'s summary), in the kernel's tables and texts, in the
 *       report and the notebooks, and in the one-line {@code toString} of the values people hold
 *       ({@code LoadSpec}, {@code stats}' {@code Summary} and {@code ComparisonRow}, for example). So a
 *       figure reads the same wherever it appears. The files ({@code runs.csv}, {@code experiment.json},
 *       {@code load --json}, hlog) and {@code --format csv} keep full precision: nothing here is meant
 *       for them.</li>
 *   <li>The rules, all with {@code Locale.ROOT}: requests/s and counts as whole numbers with
 *       separators ({@code 117,541}); ratios to 3 significant digits with their trailing zeros, which
 *       say how precise the figure is ({@code 0.614}, {@code 1.00}); CVs as percentages of 3
 *       significant digits ({@code 4.52%}); p-values to 2 ({@code 0.043}, {@code 0.0079}, and
 *       {@code < 0.001} below 0.001); latencies as whole µs or, with a unit, {@code 850us},
 *       {@code 1.25ms}, {@code 2.10s}, in ASCII because a terminal without UTF-8 would garble µ; bytes
 *       with binary prefixes ({@code 1.50KiB}); other quantities (seconds, CPU-seconds) to 3 significant
 *       digits, whole from 1,000 on; settings exactly as given ({@code 1%}, {@code 0.05}), never
 *       rounded. NaN, the statistics' "undefined", is an empty cell, as an unmeasured value is in the
 *       files; an infinity is {@code inf}.</li>
 *   <li>Half-up rounding of the value's shortest decimal form ({@code BigDecimal.valueOf}), as people
 *       round: 0.0125 to {@code 0.013}.</li>
 *   <li>A column's name says its kind ({@link io.loadlab.format.Figure#of(String, String)}), checked in
 *       this order: p-values ({@code p}, {@code p_*}), CVs ({@code cv}, {@code *_cv}), ratios
 *       ({@code ratio*}, {@code *spread}, {@code spearman}, {@code rho}), µs ({@code *_us}, {@code µs}),
 *       counts ({@code *rps*}, {@code requests}, {@code *bytes*}, {@code errors*}, {@code missed}). The
 *       statistics of a summary or comparison ({@code mean}, {@code sd}, {@code ci_low}, ...) take the
 *       kind of the table's {@code metric} column; integer columns that match nothing (ids, rounds, n)
 *       stay as they are, and everything else is 3 significant digits. So a table from {@code stats},
 *       {@code runs.csv} or a notebook is shown right without its maker saying how.</li>
 *   <li>A column whose name does not say its kind gets a print formatter of its own (Tablesaw's
 *       {@code setPrintFormatter}, with {@link io.loadlab.format.Figure#formatter()}: the report's
 *       {@code ± 95% CI} as {@code Figure.COUNT}, {@code LatencyCurves}' capacity fraction as
 *       {@code Figure.PERCENT}), and {@link io.loadlab.format.ShownTable} shows it as that formatter
 *       says. Tablesaw does not expose a column's formatter, so a cell whose text differs from what
 *       Tablesaw's default formatter gives marks one. The kernel's HTML and {@code text/plain} tables
 *       and JShell's {@code show(table)} all come from {@link io.loadlab.format.ShownTable}, so they
 *       always agree.</li>
 *   <li>The statistics' warnings and notes use {@link io.loadlab.format.Units} too ({@code rps 37,026},
 *       {@code median 47,281}); a note that compares a CI with the noise band keeps its 3 decimals
 *       ({@code [1.005, 1.005]}), which is the point of that note. The importers' {@code UnitParser}
 *       only reads the tools' unit suffixes ({@code 611.00us}, {@code 7.29MB}) and stays apart.</li>
 * </ul>
 */
package io.loadlab.format;
