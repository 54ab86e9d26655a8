/**
 * The charts of an experiment, drawn with XChart 3.8.8 from the tables of {@code data} and
 * {@code stats}: {@link io.loadlab.plot.Charts} (throughput and throughput per server CPU-second with
 * 95% CI error bars, any metric as bars, the latency spectrum on a "nines" axis, per-second time
 * series, the value per round, peak RSS, latency against throughput from a sweep with its knees, the
 * cost of protocols), one colour per subject ({@link io.loadlab.plot.Palette}), written as PNG or SVG
 * ({@link io.loadlab.plot.ChartFiles}) or shown ({@link io.loadlab.plot.ChartWindow}); bad input is a
 * {@link io.loadlab.plot.PlotException}. Inside: {@code Look} (the one style), {@code BarCharts},
 * {@code LineCharts}, {@code Spectrum}, {@code Nines} and {@code NinesChart}, {@code CurveCharts},
 * {@code ProtocolChart}, {@code Columns} (checked access to the input tables), {@code MetricLabel},
 * {@code SeriesKey}, {@code Variants}, {@code LoadlabCategoryChart} and {@code LoadlabXYChart}.
 *
 * <p>It uses {@code stats} (its tables and column names, {@link io.loadlab.stats.Knee}), {@code data}
 * (the {@code runs.csv} columns, the intervals table's {@code t_s}) and {@code format}, and nothing
 * that runs load or computes a statistic: {@code kernel} (its renderers), JShell and the notebooks use
 * it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>A subject has one colour in every chart ({@link io.loadlab.plot.Palette#colorFor}), so that a
 *       reader learns it once. The subjects of {@link io.loadlab.plot.Palette#BUNDLED} get the
 *       Okabe–Ito palette, which stays distinguishable under the common forms of colour blindness,
 *       unaltered (darkening its yellow for contrast brought it near the orange, worse for readers with
 *       deuteranopia). Any other subject gets a muted hue from an FNV-1a hash of its name: the same on
 *       every machine. Variants of a subject keep its colour and differ by dash pattern (lines) or tint
 *       (bars, 30% more white per step, at most 70%).</li>
 *   <li>Every chart is {@link io.loadlab.plot.Charts#WIDTH} × {@link io.loadlab.plot.Charts#HEIGHT}
 *       (1200 × 600 px), the width of a report's content, and the style lives in {@code Look} alone,
 *       so the charts cannot drift apart.</li>
 *   <li>A chart prints as one line ({@link io.loadlab.plot.Charts#describe}:
 *       {@code CategoryChart Throughput (1200×600 px)}): the charts are small subclasses of XChart's,
 *       whose own {@code toString} is {@code Type@hash}, and JShell shows every value it holds.</li>
 *   <li>Bar charts have no margin inside the plot's border, so 0 is its bottom edge and XChart's
 *       clipping cuts an error bar there instead of drawing it below 0; the y axis ends 6% above the
 *       highest bar or error bar. A chart with a cut interval says so in its title with the groups' n
 *       ({@code Throughput — error bars cut at 0 for n = 2}): two rounds give t = 12.7. An error bar is
 *       half the 95% interval, since XChart draws symmetric ones; the protocols' bars reach the
 *       farther end of the ratio's interval on both sides, so they never look narrower than it. A
 *       missing bar is drawn at height 0, because XChart skips a null bar but not its error bar and
 *       would shift the later error bars one group left.</li>
 *   <li>The latency spectrum puts percentile p at x = 1 / (1 − p/100) on a log axis, computed in
 *       decimal so that 50, 90, 99, 99.9 and 99.99 fall exactly at 2, 10, 100, 1000 and 10000 and each
 *       added nine gets the same width. XChart 3.8.8 can place ticks on a log axis or format them, not
 *       both, so {@code NinesChart} keeps XChart's log ticks with invisible labels and paints the
 *       percentiles over them.</li>
 *   <li>Two more XChart 3.8.8 habits are worked around where they showed: evenly spaced points get a
 *       tick each until labels touch (30 one-second samples read {@code 1011121314…}), so
 *       {@code Look.roundTicksOnly} ends the axis half a step late; throughput labels such as
 *       {@code 75,000} ran into each other at the default spacing, so the sweep's charts ask for
 *       {@code CurveCharts.X_TICK_SPACING_PX} (110 px).</li>
 *   <li>{@link io.loadlab.plot.Charts#latencyThroughput} draws a percentile against <em>achieved</em>
 *       throughput, with the round-bootstrap interval as thin dotted lines;
 *       {@link io.loadlab.plot.Charts#latencyThroughputWithKnees} adds the p99 objective as a dashed
 *       line and each knee that lies between two points as a diamond. A knee beyond the sweep's range
 *       has no place on the chart and is not drawn; the knee table says {@code >} or {@code <}.</li>
 *   <li>Rendering needs no display: {@link io.loadlab.plot.ChartFiles} paints into memory and does
 *       not set {@code java.awt.headless}, which would change AWT for the whole JVM.
 *       {@link io.loadlab.plot.ChartWindow#show} opens a window where there is a display, else writes
 *       a PNG under {@code data/tmp/charts/} and says where.</li>
 *   <li>A missing column is a {@link io.loadlab.plot.PlotException} that names it and lists the
 *       columns present, so a chart given the wrong table says which one it wanted.</li>
 * </ul>
 */
package io.loadlab.plot;
