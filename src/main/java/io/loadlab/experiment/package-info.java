/**
 * Experiments: many runs of several subjects, workloads and engines in rotated rounds, recorded so that
 * they can be resumed, rerun and compared. {@link ExperimentSpec} (+ {@link ExperimentSpec.Builder}) is
 * everything an experiment needs, in four parts that each check their own fields: {@link Selection}
 * (what is measured), {@link RunLoad} (each run's load, with a latency {@link Sweep} and the warm-up rule
 * {@link RunLoad#warmupFor}), {@link Placement} (CPUs, subject host, ready timeout) and {@link Generators}
 * (the engines, here or on agents); {@link AutoRounds} holds {@code --rounds auto}'s settings.
 * {@link Plan} orders the runs ({@link Plan.Instance}, {@link Plan.Run}, a sweep's {@link SweepPoint});
 * {@link Experiment} creates, resumes and executes one in its folder, and {@link Runner} orchestrates it:
 * subject lifecycle, engine, store. {@link Rerun} prepares a recorded experiment to run again here,
 * {@link ExperimentScope} lets a notebook kernel stop the experiments of a cell, {@link Environment} is
 * where the numbers were measured, and {@link ExperimentException} says what is wrong with a spec or plan.
 * Inside: {@code Measurement} (one run measured through its engine), {@code Server} (a started subject,
 * from {@code Servers} here or on a subject host, or an {@code AttachedServer} someone else started),
 * {@code RunRows}, {@code Offers} (the rates of a sweep's points), {@code Preload}, {@code Preflight},
 * {@code VariantChoice}, {@code RoundsWatch} (the runner's looks of {@code --rounds auto}),
 * {@code SpecJson} (the spec to and from {@code data.SpecSection}) and {@code ScratchFolders}.
 *
 * <p>It uses {@code agent}, {@code engine}, {@code project}, {@code subject}, {@code data}, {@code host},
 * {@code load}, {@code workload}, {@code format}, {@code time} and {@code stats} ({@code --rounds auto}
 * judges its rounds as it runs): {@code cli}, {@code kernel} and {@link io.loadlab.Loadlab} use it, never
 * the other way round. The runner never asks which engine a run has: the engine decides its warm-up and
 * what it can report.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>The plan is a pure function of the spec and the catalog: run ids 1 to N in the order the runs
 *       happen, and a sweep's points, never its rates (a share's rate is known only once its round's
 *       capacity run is measured: {@code Offers}). {@code experiment.json} stores the plan (run id,
 *       round, position, subject, variant, workload, an external engine, a sweep point); {@code --resume}
 *       plans again from the stored spec, runs the ids not in {@code runs.csv}, and refuses when the plan
 *       differs (a subject became unavailable, a new one matches the pattern) instead of running the
 *       wrong runs. {@link Rerun} holds the plan here against the recorded one, run by run.</li>
 *   <li>Order effects are rotated away ({@link Plan}). In round r the subject instances (subject ×
 *       variant) are rotated by r-1, or shuffled with a per-round seed, so each takes each position; the
 *       workloads of an instance rotate with the round too, since a fresh process runs its first workload
 *       colder than the rest; the engines of a workload rotate likewise. Experiments stored before the
 *       workloads rotated ({@code workload_order} absent in the spec) keep their fixed order, so that a
 *       resume plans the same runs.</li>
 *   <li>Each round starts every instance afresh, and the runs of one instance in a round share its
 *       process. Faults stay in their round: a subject that fails to build, start or become ready gives
 *       failed rows (with the tail of its log) for its runs in that round; one that dies during a run
 *       makes that run and the rest of its round failed; the experiment goes on, and the next round
 *       starts it afresh. A window in which the subject answered nothing is {@code failed}
 *       ({@code subject 'S' answered no request in the 0.3 s window (errors: ...)}, or that no error was
 *       counted), never {@code ok} with 0 requests/s, which would read as a throughput. An exception that
 *       ends the experiment (a full disk) marks it {@code failed}, with the error, never
 *       {@code completed}.</li>
 *   <li>Stopping (Ctrl-C, {@link Experiment#stop}): the runner interrupts only its waits (a build, the
 *       readiness, the load run, the cool-down), never its file writes, since an interrupt closes a
 *       {@code FileChannel} mid-write; files are written only by the runner between waits, so no signal
 *       can cut a write. The run in flight is dropped, the subject stopped, {@code experiment.json} says
 *       {@code interrupted}, and {@code loadlab run --resume DIR} completes it, first removing the
 *       scratch folders a killed session left. The shutdown hook and the second Ctrl-C, which kills the
 *       subjects at once ({@code subject.SubjectProcess.killAll}), are {@code cli}'s
 *       ({@code RunCommand}). {@code HarnessFaultsTest} (in one JVM) and {@code HarnessProcessFaultsTest}
 *       (the harness as a child process: signals, kill -9, one CPU, a file size limit) check each fault,
 *       with {@code src/test/resources/faults/fault_server.py} as the subject.</li>
 *   <li>CPU pinning: the runner pins this JVM to the load CPUs for the experiment and gives the allowed
 *       CPUs back at the end, so several experiments in one JShell or notebook session see the same
 *       CPUs. By default the subjects get the first allowed CPU and the engine the others
 *       ({@code host.Cpus}); {@code --server-cpus} and {@code --load-cpus} must name allowed CPUs; with one
 *       CPU or no {@code taskset} nothing is pinned and {@code experiment.json} says so, in its pinning
 *       and its warnings. Engine threads default to one per load CPU (one when nothing is pinned; every
 *       CPU here when the subjects run on a subject host), at most one per connection.</li>
 *   <li>Warm-up bounds per subject ({@link RunLoad#warmupFor}). The default warm-up is steady-state, at
 *       most {@link ExperimentSpec#DEFAULT_WARMUP_MAX} (15 s) in {@code run}, {@code demo} and
 *       {@link ExperimentSpec#builder()}. A manifest may widen the bounds of a JIT server
 *       ({@code warmup: {min: 3s, max: 30s}}): the run takes the larger of the experiment's and the
 *       manifest's min and max, the manifest's counted from the subject process's start
 *       ({@code Measurement} passes the process's age). They say how long its JIT needs from start, so a
 *       later workload of the same process, loaded all along since, waits only for what is left of them
 *       ({@code WarmupBoundsTest}). A fixed {@code --warmup} ignores them.</li>
 *   <li>Seeded keys: each run's seed is the experiment's seed mixed with its run id
 *       ({@code seed * 31 + run id}, {@code Measurement}), so a run sends the same {@code {rand:LO-HI}}
 *       keys in the same order when it runs again, and two runs of one experiment send different ones.</li>
 *   <li>A project's expectations are checked before the first round ({@code Preflight}): one request of
 *       each workload to each subject's first plain-HTTP/1.1 instance, and the experiment stops, in one
 *       line naming subject, workload, what was expected and what came back, at the first answer that is
 *       not as expected, before anything is measured.</li>
 *   <li>Variants ({@code VariantChoice}): a variant pattern naming only some variants
 *       ({@code protocol=.*}) leaves the others at their first value, and with {@code --protocols} the
 *       variant pattern speaks of the non-protocol variants only; patterns match the full label
 *       ({@code protocol=h1} included), while the data's label leaves {@code protocol=h1} out
 *       ({@code subject.Subject.label}). {@code Measurement} loads each run over its variant's protocol
 *       (TLS to the address the certificate names, ALPN h2 for {@code h2-tls}, prior knowledge for
 *       {@code h2c}, {@code --streams} per connection for the HTTP/2 ones, the key-value preload too),
 *       trusting the experiment's throw-away CA, made in {@code work/tls} when a planned run serves TLS
 *       and deleted at the end. An engine that cannot speak a variant (wrk over h2, agents over h2, h2c
 *       and TLS) has its runs skipped by the plan, with the reason.</li>
 *   <li>{@code experiment.json} records where the numbers were measured ({@link Environment}): CPU model,
 *       cores, kernel, OS, JVM, Loadlab's version and commit (with "(with uncommitted changes)"), the
 *       pinning, the CPU governor and boost ({@code host.Machine}: "not exposed (...)" rather than a
 *       guess), each subject's version and source hashes (so that a rerun elsewhere can say whose sources
 *       differ), and each external engine's version, since a wrk update can change figures too.</li>
 *   <li>{@code --rounds auto}: {@code RoundsWatch} looks after each round from the third on with
 *       {@code stats.RoundsAuto}'s rule and records every look in {@code experiment.json}; the rule, its
 *       level per look, its budget and the simulation that checks it are in {@code docs/methodology.md},
 *       "Rounds auto".</li>
 * </ul>
 *
 * <p>Measurement rules applied in {@code io.loadlab.load}, whose package-info gives their reasons:
 * <ul>
 *   <li>Steady-state warm-up ({@code load.SteadyState}): 500 ms intervals, steady when the last 4 (2 s)
 *       are quiet (CV at most 3% and no trend over 2%) or the last 8 (4 s) are flat within their own
 *       noise. On seeded simulated series ({@code SteadyWarmupTest}) flat ones with 5% noise pass 82% of
 *       checks and a rise of 20% over the 4 s passes 4%.</li>
 *   <li>Compilers quiet, and no good answer ({@code load.WarmupEnd}, issue 31): the warm-up ends
 *       only when the JIT compiler threads of the subject (read from {@code /proc} by its sampler,
 *       {@code host.CompilerThreads}) and of this engine used at most 5% of a CPU over the rule's last
 *       2 s (java-netty read 127,067 requests/s "steady after 5.0 s" on a JIT plateau while its other
 *       five runs read 185-197k, and its compilers take 40-60% of its core for 3-5 s;
 *       {@code BrokenWarmupTest}, {@code WarmupCompilersTest}, {@code bench/plateau.sh}); 1 s without an answer of an accepted status and body ends any
 *       warm-up at once ({@code warmup_cut_short}). The agents' coordinator applies both on the merged
 *       whole seconds ({@code agent.Collector}); for wrk and h2load a steady-state warm-up is the
 *       built-in engine's, followed by a 1 s run of the tool ({@code engine.ToolEngine}).</li>
 *   <li>Bounds ({@code load.Warmup.Steady}): at least 2 s and at most {@code --warmup-max} (15 s in
 *       {@code run} and {@code demo}, 10 s in {@code load}); a run that reaches the maximum unsteady is
 *       measured anyway, {@code steady} false and warning {@code not_steady} (Barrett et al. 2017: many
 *       VM benchmarks never reach a steady state). A fixed warm-up ({@code load.Warmup.Fixed}) still
 *       records whether its last 2 s were steady.</li>
 *   <li>Seeded keys ({@code load}'s {@code RequestEncoder}): a {@code SplittableRandom} per event loop
 *       from the run's seed, as the wrk and h2load paths already did.</li>
 *   <li>Pace slack ({@code load.LoadModel.FixedRate.DEFAULT_PACE_SLACK}: 0): measured with
 *       {@code bench/pace-slack.sh -r 3 -d 8} (nginx 1 worker on core 0, {@code loadlab load -t1 -c64 -R}
 *       on core 1, 2026-12-06), a 1 ms slack, now a grid the requests go out on, saved 59% of the
 *       engine's CPU at 20,000/s and raised the latency p50 of a server answering in about 100 µs from
 *       109 to 661 µs. So each request is sent at its due time unless {@code --pace-slack} says
 *       otherwise.</li>
 * </ul>
 */
package io.loadlab.experiment;
