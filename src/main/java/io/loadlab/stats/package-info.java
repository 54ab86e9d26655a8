/**
 * Statistics across rounds, from a runs table (the columns of {@code runs.csv}, in the groups of
 * {@link io.loadlab.data.AnalysisGroups}): summaries ({@link Stats}, {@link Summary}); the comparison
 * with a baseline under one verdict rule ({@link Comparison}, {@link ComparisonRow}, {@link Verdict},
 * {@link CompareOptions}, {@link Adjustment}, {@link Design}, {@link Direction}), in sentences
 * ({@link Sentences}, {@link Compared}) and for latency percentiles round by round
 * ({@link PercentileRatios}); the warnings ({@link Warnings}, {@link Warning}, {@link WarningOptions});
 * a report's opening sentences ({@link Headline}, {@link SharedVariant}); engines against each other
 * ({@link Engines}); the cost of protocols against h1 ({@link Protocols}); experiments reconciled
 * ({@link Reconcile}, {@link Reconciliation}, {@link ReconcileRow}, {@link Agreement}); latency sweeps
 * ({@link SweepRuns}, {@link LatencyCurves}, {@link Knees}, {@link Knee}, {@link EqualRates}); the
 * stopping rule of {@code --rounds auto} ({@link RoundsAuto}); and the names of the columns its tables
 * add ({@link StatsColumn}). Inside: {@code Verdicts} (the one rule), {@code Power}, {@code TTests},
 * {@code Bootstrap}, {@code MannWhitney}, {@code Spearman}, {@code RoundBootstrap},
 * {@code SweepSeries}, {@code PointStats}, {@code RoundWarnings}, {@code RunWarnings},
 * {@code ColdStart}, {@code RatioOfRatios}, {@code PairSamples}, {@code SetupFacts},
 * {@code Explanations}, {@code EnvironmentTable}, {@code ProtocolTable}, {@code RunData}.
 *
 * <p>It uses {@code data} (the tables, their columns and groups, the runs' histograms) and
 * {@code format} (rounding for people), and nothing that runs load or draws: {@code plot},
 * {@code experiment} ({@code --rounds auto} judges its rounds as it runs), {@code kernel}, {@code cli}
 * and {@link io.loadlab.Analysis} use it, never the other way round.
 *
 * <p>The rules, with their references, are stated for users in {@code docs/methodology.md}; here are
 * the reasons the code follows them. Why it is built this way:
 * <ul>
 *   <li>One verdict rule, {@code Verdicts}, decides every comparison: {@link Comparison},
 *       {@link PercentileRatios}, {@link EqualRates}, {@link Engines}, {@link Protocols} and the looks
 *       of {@link RoundsAuto}; {@code cli.FailIf} only reads the verdicts. "X is faster than Y" then
 *       needs the same evidence wherever it is said.</li>
 *   <li>Below 3 rounds in either group ({@code Verdicts.MIN_ROUNDS}) the verdict is
 *       {@code too few rounds}, never {@code undecided}: with 2 rounds Welch's test cannot reach
 *       p &lt; 0.05 even for a subject at 0.16× another, and "no difference" would present an absence
 *       of evidence as evidence. The figures (ratio, CI, p-values) are still shown.</li>
 *   <li>The design follows how the runs were made, never the p it gives. Both groups with exactly one
 *       positive value in each of the same 3 or more rounds (a round is a block: experiment and round)
 *       are paired: each round starts every subject afresh close in time, so what slowed a round
 *       slowed both. The test is then a one-sample t-test of the per-round log ratios (scipy's
 *       {@code ttest_rel} on the logs), which tests the reported ratio whatever the metric's scale,
 *       and the bootstrap resamples whole rounds. A round missing in one group, rounds of different
 *       experiments or a value of 0 give the welch design. Pairing costs degrees of freedom (n − 1
 *       instead of about 2n − 2): where rounds do not share their noise, the paired p can be larger
 *       than Welch's, and that is accepted.</li>
 *   <li>A difference needs both the ratio's bootstrap CI entirely outside 1 ± noise and the adjusted
 *       p below alpha: the CI says the difference is larger than worth calling, the test that it is
 *       not chance. The bootstrap alone is too narrow with few rounds (3 rounds have 10 distinct
 *       resamples): on {@code VerdictSimulationTest}'s +0.7%, 3-round pairs the rule still called 22
 *       of 400 (5.5%) {@code faster}, a known weakness of the difference rule.</li>
 *   <li>Equivalence is two one-sided tests with a t interval ({@code Power.pEquivalence}), not the
 *       bootstrap, for the same reason: a bootstrap of 3 to 5 rounds would call equivalence too
 *       readily. On A/A pairs of 10 rounds (1% noise per round's ratio) it says {@code equivalent} in
 *       333 of 400 pairs (83%) and a difference in none.</li>
 *   <li>An undecided row says what would decide it: the smallest difference detectable with 80% power
 *       and about how many rounds each ({@code Power.smallestDetectable}, {@code Power.roundsAdvised},
 *       shown by {@link ComparisonRow#verdictText()} as {@code undecided (mdd 12.8%, ~26 rounds)}).
 *       The noise per round is raised to its one-sided 80% upper confidence limit
 *       ({@code Power.NOISE_CONFIDENCE}: ×2.12 with 3 rounds, ×1.29 with 10) because planning on the
 *       observed noise decided only 60% of simulated pairs at the advised rounds; with the limit the
 *       +0.7% pairs' median advice of 161 rounds decides 196 of 200. Past {@code Power.MAX_ROUNDS}
 *       (10,000) the advice is "more than".</li>
 *   <li>Multiplicity: {@code Verdicts.adjustByFamily} adjusts the p-values of each family (one workload
 *       and the metric: its groups against the baseline) by {@link CompareOptions#adjustment()},
 *       {@link Adjustment#HOLM} by default, and decides again. Six equal subjects tested at alpha 0.05
 *       would call at least one difference in about 26% of experiments; simulated with 6 subjects,
 *       5 rounds and 3% noise per run, Holm gave a false difference in 27 of 600 experiments (4.5%),
 *       no adjustment in 112 (19%). Holm holds under any dependence (the tests share the baseline's
 *       rounds). Equivalence is not adjusted (an intersection–union test), and engines and protocols,
 *       each held against its own reference, are judged pair by pair without adjustment.</li>
 *   <li>The baseline is one subject in one variant. Another subject is held against the baseline's
 *       group of the same variant label, else of the same variant and settings, else its default
 *       variant run at the same connection count and rate; a baseline measured at another setting is
 *       {@link Verdict#NO_BASELINE}, never held against the group silently.</li>
 *   <li>Percentiles are never averaged across rounds (the mean of three p99s is the p99 of nothing):
 *       {@link PercentileRatios} takes, in each round, the ratio of the two groups' own
 *       {@code lat_pNN_us} and compares the mean of those ratios by the one rule, paired by round; a
 *       round without exactly one successful run of each is left out and the note says so.
 *       {@code p_welch} and {@code p_mannwhitney} stay empty there: they would compare ratios with a
 *       constant. The percentile of the merged histograms is the figure shown beside it.</li>
 *   <li>Every p-value matches scipy, so that a user can check a figure: Mann–Whitney (reported, never
 *       the verdict) is {@code mannwhitneyu(a, b, use_continuity=False)} with scipy's
 *       {@code method='auto'}, exact when a sample has at most 8 values ({@code MannWhitney.EXACT_MAX})
 *       and no value is tied, else normal with the tie-corrected variance. The golden values were
 *       computed with Debian's scipy 1.10.1 and, for the exact and paired p-values, scipy 1.17.1 from
 *       PyPI (the scripts are in the tests' {@code GoldenData}; {@code PValuesTest} checks them).
 *       Bootstraps are seeded ({@link CompareOptions#seed()}, 1 by default), so a comparison
 *       repeats.</li>
 *   <li>Warnings are built to avoid false alarms. {@code outlier} (modified Z-score over 3.5) waits
 *       for 5 rounds: with 3 the MAD is the smaller of two distances, and a round 4% off two close
 *       ones scored −2655 in a demo. {@code slow_first_round} needs the first round worse than every
 *       later one by more than 1% and by more than twice the later rounds' own CV, since with three
 *       rounds the first is the lowest a third of the time by chance alone; it names what was cold
 *       ({@code ColdStart}: in the experiment's first run the load engine's JIT, in the first workload
 *       of a subject process the server's JIT and caches). {@code drift} uses Spearman's exact
 *       permutation p up to 9 rounds ({@code Spearman.EXACT_MAX}), so that a perfect order of 4 rounds
 *       has p = 2/24 ≈ 0.083 and is no drift; the t approximation above. {@code noisy_machine} flags
 *       runs where other processes used over 0.10 CPU-s per second or steal over 0.02
 *       ({@link WarningOptions#maxNoiseCpu()}, {@link WarningOptions#maxSteal()}). A column an older
 *       experiment lacks, or an empty value, is "not measured" and never a warning.</li>
 *   <li>Latency sweeps exist because in a closed loop latency is mostly queueing behind the other
 *       connections (at 64 connections p50 ≈ 64 / throughput), so it only restates throughput. A
 *       sweep point's percentiles are of the merged histograms of its runs
 *       ({@link io.loadlab.data.RunHistograms}, read only for the runs asked for); their 95% interval
 *       is a bootstrap over whole rounds ({@code RoundBootstrap}: 2,000 draws, each distinct draw
 *       computed once), which with 3 rounds spans about the rounds' own range. Where corrected
 *       latency and service time part, requests wait: queueing has started.</li>
 *   <li>{@link Knees} interpolates log(p99) against <em>achieved</em> throughput, since past capacity
 *       the target is not reached, and never below the last point under the objective (a server whose
 *       throughput fell when overloaded). Checked by {@code SweepStatsTest} on values computed by hand
 *       and in Python, and end to end by {@code SweepRunTest}: a stand-in of one worker at 10 ms per
 *       request (100 requests/s exactly) gets its knee at a 100 ms p99 within 10% of that
 *       capacity.</li>
 *   <li>{@link SweepRuns} is the one place that says which runs are a sweep's windows: the throughput
 *       tables compare only the closed-loop runs ({@link SweepRuns#closedLoop}), because a window
 *       there would be a share of one subject's own capacity with nothing in another subject to hold
 *       it against; windows are compared at equal offered load ({@link EqualRates}, each
 *       {@code --rates} rate on its own). The default p99 objective is
 *       {@link SweepRuns#DEFAULT_SLO_MS} (10 ms).</li>
 *   <li>{@link Reconcile} analyses each experiment on its own, never pooled, so each keeps its own
 *       groups. A and B <em>disagree</em> on a pair only with the evidence of a verdict, applied to the
 *       ratio of ratios: at least 3 rounds of both subjects in each, the 95% bootstrap CI entirely
 *       outside 1 ± noise, and p &lt; alpha ({@code RatioOfRatios}: each experiment's ratio resampled
 *       as {@link Comparison} does, A's replicate over an independent one of B's; Welch's t-test of
 *       the two estimates of ln(X / Y)). So "these experiments disagree" needs what "X is faster than
 *       Y" needs. The test is there because a percentile bootstrap of 3 rounds has only 10 distinct
 *       resamples per experiment and gives intervals too narrow on its own; the band keeps a
 *       significant difference of a fraction of a percent from being called. The outcome
 *       never reads "agree": it is {@link Agreement#WITHIN_NOISE} (the CSV's {@code agree} true) or
 *       {@link Agreement#TOO_FEW_ROUNDS} ({@code agree} empty).</li>
 *   <li>Beside a disagreement the environment table and {@code Explanations} list facts, never causes;
 *       finding which one moved the ratio is a rerun that changes one. A fact an experiment did not
 *       record reads {@code unknown}, never blank or "same". Run facts differ by kind: a warm-up when
 *       one is 0 and the other not or one is over 1.5 times the other, shares of runs by none, some or
 *       all or by over 25 points, noise and steal by their warning thresholds.</li>
 *   <li>{@link RoundsAuto} splits alpha evenly over its looks (rounds 3 to M, K = M − 2 looks, each at
 *       alpha / K): looking after every round at the full alpha called 14% of simulated A/A pairs
 *       different at some look, the split 2.8% (600 pairs, a 5% machine effect per round, 3% noise
 *       per run, looks after rounds 3 to 10), and a 10% slowdown was found in all 600 pairs after 5.0
 *       rounds on average. A Lan–DeMets spending function would decide sooner, but its boundaries
 *       assume normal statistics with known information fractions, which 3 to 10 rounds of a t-test
 *       do not give.</li>
 * </ul>
 */
package io.loadlab.stats;
