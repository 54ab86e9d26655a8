/**
 * The {@code loadlab} command line (picocli), and the JVM it starts in. {@link io.loadlab.cli.Main} runs
 * it ({@code Main.execute} for tests and other callers; exit codes 0 success, 1 failed run, 2 usage
 * error), with one command class per subcommand: {@code LoadCommand} (+ {@code RemoteLoad},
 * {@code AgentOptions}, {@code ProtocolOptions}), {@code RunCommand} (+ {@code ProjectSection},
 * {@code RoundsOptions}, {@code SubjectHostOption}, {@code RunSummary}, {@code ConsoleProgress}),
 * {@code RerunCommand}, {@code AgentCommand}, {@code ImportCommand}, {@code SubjectsCommand},
 * {@code CompareCommand} (+ {@code CompareFormats}, {@code FailIf}, {@code ReconcileOutput},
 * {@code SweepSection}, {@code ProtocolSection}), {@code JshellCommand} (+
 * {@link io.loadlab.cli.JshellAgent}), {@code KernelCommand}, {@code ReportCommand}, {@code DemoCommand}
 * and {@code InitCommand}. Around them: {@code HelpText} (every {@code --help} reflowed into paragraphs),
 * {@code CliReference} ({@code docs/reference/cli.md}, made from the same model), {@code Jupyter} (which
 * {@code jupyter} to run), {@code Home}, {@link io.loadlab.cli.ProjectRuns} (a project's run for
 * notebooks), {@code CliException} (a failure with its exit code) and {@code Training} (the run that
 * fills the class-data-sharing archive). The launcher {@code ./loadlab}, outside {@code src/}, builds
 * the jar and starts this package's JVM with the flags below.
 *
 * <p>It uses the packages below it that its commands need ({@code PackageDependenciesTest} lists them:
 * all but {@code plot} and {@code bytes}), and nothing that measures or analyses on its own account: it
 * parses, calls down and prints. Only {@code io.loadlab.Loadlab} uses it ({@code ProjectRuns}, so that a
 * notebook plans a project's run as {@code loadlab run} does); no package below it does.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>An error is one line, never a stack trace: picocli's parameter errors print
 *       {@code loadlab: ...} and a pointer to {@code --help} and exit 2; {@code Main.execute}'s handler
 *       prints the areas' exceptions it lists as one line, {@code LoadException} with exit 2 for a usage
 *       error and 1 for a failed run, the others with exit 2, and {@code CliException} with the code it
 *       carries ({@code import} turns an {@code ImportException} into one). A command checks early what
 *       would otherwise fail late: {@code report} checks its folders, that there is a successful run and
 *       the baseline before it starts nbconvert, whose own failure would be a traceback after the
 *       notebook's start-up.</li>
 *   <li>{@code Main.execute} builds picocli's model of only the subcommand named: the model of all of
 *       them took about a fifth of a CPU-second at each start, which a load run's whole-process CPU
 *       pays. {@code help}, the usage and an unknown name's message still build them all.</li>
 *   <li>Help texts are written as arrays of source-width lines; picocli prints each element on a line
 *       of its own and wraps the long ones, leaving a short orphan after nearly every line, so
 *       {@code HelpText} joins each paragraph's lines and lets picocli wrap it once at the column's real
 *       width. {@code CliReference} writes the reference page from the same model, and a test compares
 *       the committed page with it.</li>
 *   <li>{@code ./loadlab} builds the jar with Maven when it is missing or older than the sources, then
 *       touches it (Maven leaves an up-to-date jar alone, and a newer file that is not compiled would
 *       otherwise rebuild on every start), and runs {@code java -jar} with {@code $JAVA_HOME}'s Java,
 *       else the one on the PATH. {@code loadlab demo} runs {@code scripts/setup demo} first.</li>
 *   <li>The JVM's flags are those of a load generator: {@code -XX:-UsePerfData} (no hsperfdata file:
 *       {@code jps} and {@code jstat} cannot see the JVM, JFR and {@code jcmd} still work);
 *       {@code -Dio.netty.leakDetection.level=disabled} (the leak detector records a stack trace for one
 *       buffer in 128); {@code -Dio.netty.jfr.enabled=false} (Netty's buffer allocator has JFR events,
 *       and their first allocation made JFR register them, with about 80 classes, annotation proxies
 *       and generated handlers, though no recording was on: a one-request {@code load} took 0.72 CPU-s
 *       with them [0.69, 0.76] and 0.55 without [0.49, 0.61], a paired saving of 0.17 CPU-s
 *       [0.11, 0.23], 10 alternating pairs pinned to one core); and on 4 CPUs or fewer
 *       {@code -XX:+UseSerialGC}: the engine allocates nothing per request, so collections are rare and
 *       short, and no collector threads run beside the event loops. Above 4 CPUs the JVM's own choice is
 *       kept (not measured). {@code bench/jvm-flags.sh} ({@code docs/benchmarks.md}, "JVM flags")
 *       measured G1, the parallel collector, C1 only, a small initial heap and a pre-touched one against
 *       these, n = 3 alternating rounds: every 95% interval of the ratios held 1, so these flags stay.
 *       {@code -XX:CICompilerCount} is left alone: on one CPU the JVM already takes 2. C1 only saves a
 *       fifth of the whole process at 20,000/s on a 3.2 ms {@code --pace-slack} grid, where the JIT
 *       (about 1.4 CPU-s) costs more than the window, but nothing on the even schedule and 5% in the
 *       closed loop, so C2 stays; Java 25 was no cheaper (same script, its {@code fixed} mode).
 *       {@code -XX:CompileCommand=CompileThresholdScaling,io.netty.channel.SingleThreadIoEventLoop::run,0.05}
 *       (after {@code -XX:CompileCommand=quiet}, which keeps the command's own line off stdout): Netty's
 *       loop method is entered once, so only its passes count towards compiling it, and at 20,000/s its
 *       C2 compile (on-stack replacement, about 45 ms of C2 on the load core) came about 3 s into an 8 s
 *       window in every logged run; at a twentieth of the thresholds it comes in the warm-up's first
 *       second. 24 alternating pairs: whole-process CPU 0.997 [0.990, 1.005] of before, in-window loop
 *       CPU 0.995 [0.991, 0.999], send lateness p99.9 0.857 [0.666, 1.102] ({@code docs/benchmarks.md},
 *       "Where a late send's time went").
 *       Finally {@code --enable-native-access=ALL-UNNAMED}: Netty loads its native transports with
 *       {@code System.loadLibrary}, for which Java 24 and later print four lines of warning at every
 *       start (JEP 472); Java 17 to 23 accept the flag silently.</li>
 *   <li>{@code LOADLAB_JAVA_OPTS} comes after these flags, so it can override them (another collector
 *       needs {@code -XX:-UseSerialGC} first, e.g. {@code -XX:-UseSerialGC -XX:+UseG1GC}).</li>
 *   <li>Class-data sharing: after each build the launcher makes a static AppCDS archive,
 *       {@code target/cds/<java home>-<checksum of the flags>.jsa}, one per Java and set of flags (and
 *       again when that Java changes), since the JVM may refuse an archive made with other flags:
 *       {@code Training} (three short {@code load} runs against a server of its own on 127.0.0.1:
 *       closed loop with {@code --json}, fixed rate with {@code --hlog}, pipelined; then a kernel's
 *       JShell with four cells, {@code KernelMain.train}) runs under {@code -XX:DumpLoadedClassList},
 *       then {@code -Xshare:dump} stores those classes. Static rather than JDK 17's dynamic archive: that
 *       one leaves out classes older than Java 6, which picocli's all are. It takes about 10 s once per
 *       build; when it fails, {@code target/cds/*.failed} keeps the log and the launcher starts without
 *       an archive until the next build. With an archive the JVM's own warnings (a stale archive, say)
 *       go to stderr, since stdout may be {@code --json}. The build and the archive are made under
 *       {@code flock target/.launcher.lock}: launchers started together (an agent and a load) wait for
 *       the first instead of making them over each other's files ({@code LauncherLockTest}).</li>
 *   <li>The kernel gets the same flags and archive: the launcher passes them in
 *       {@code -Dloadlab.jvm.flags} (one a line) and {@code loadlab kernel install} writes them into the
 *       kernelspec's {@code argv} (the archive only when the classes come from the jar, whose class path
 *       it was made with), then the kernel's own from {@code -Dloadlab.kernel.jvm.flags} (compiler
 *       directives on up to 4 CPUs; why is in {@code io.loadlab.kernel}). The kernelspec is
 *       {@code loadlab}, "Java (Loadlab)", language {@code java}, {@code interrupt_mode: message},
 *       installed by {@code jupyter kernelspec install} ({@code --user}, {@code --sys-prefix} or
 *       {@code --prefix P}; {@code --allow-unsigned} adds the kernel's flag). {@code Jupyter} picks the
 *       {@code jupyter} for {@code kernel install}, {@code report} and {@code demo} alike:
 *       {@code --jupyter}, else the first on the PATH (pip's, conda's, a virtual environment's), else
 *       Debian's {@code /usr/bin/jupyter}.</li>
 *   <li>{@code loadlab report DIR [DIR...]} ({@code ReportCommand}) executes
 *       {@code notebooks/report.ipynb} with {@code jupyter nbconvert --to html --execute} under the
 *       {@code loadlab} kernel (installed for the user when Jupyter lacks it or runs another checkout),
 *       its parameters in the environment ({@code LOADLAB_EXPERIMENT}, {@code LOADLAB_BASELINE} and, for
 *       the other folders to reconcile with the first, {@code LOADLAB_RECONCILE_WITH}), code cells hidden
 *       unless {@code --with-code}. It removes the script and stylesheet links that Debian's nbconvert
 *       adds (the CSS is inline, charts are PNG data URIs) and writes one offline HTML file,
 *       {@code reports/<experiment>.html} by default. nbconvert's lab page is as wide as the window and
 *       shows an image at its own width ({@code max-width: 100%}), so the template caps the page
 *       ({@code .jp-Notebook} at {@code Charts.WIDTH} + 10 px: its outputs sit 10 px inside the content
 *       box) and makes images fill their output ({@code width: 100%}): at any window of 1,230 px or more
 *       a chart is shown at its own 1,200 px, and narrower windows scale it down. Its tables are rounded
 *       by their columns' names. A latency sweep gets a section of its own (from the runs'
 *       {@code sweep_role}: the curves, knees and p99 at equal rates, as {@code loadlab compare}), and
 *       the throughput tables then take the closed-loop runs only, so other experiments' reports are
 *       unchanged.</li>
 *   <li>The report is checked as a reader sees it: {@code ReportCommandTest} opens the page in headless
 *       Chromium (1280 × 4000) with a script that writes the layout Chromium computed into the DOM it
 *       dumps ({@code ReportPage}), and checks the DOM (images, table rows; ratio cells at most 3
 *       significant digits, rps, {@code requests} and µs cells whole numbers with separators, p cells 2
 *       significant digits or {@code < 0.001}, CV cells 3-digit percentages) and a screenshot: not
 *       blank, every chart at least 97% of the page's content width and drawn edge to edge, and in each
 *       numeric cell the ink spanning exactly its text's box. It also renders {@code data/sweep-sample}
 *       and finds every curve row the statistics compute, its knees, the equal-rate table and the chart;
 *       {@code NotebooksTest} executes every other notebook and checks that every number in its tables
 *       is rounded.</li>
 *   <li>{@code loadlab demo} ({@code DemoCommand}) is the project's main job: {@code plaintext|json} on
 *       seven bundled subjects ({@code DemoCommand.SUBJECTS}: cpp-beast, drogon, go-nethttp,
 *       java-httpserver, java-netty, nginx, rust-axum, those that can run here), 3 rounds of 2 s windows,
 *       each after a warm-up until the throughput is steady, no cool-down, into
 *       {@code data/demo-<date-time>/}, then a summary table and {@code reports/demo-<date-time>.html},
 *       settings chosen to finish in minutes on 2 cores. node-http is left out for time: its half-second
 *       throughput is the noisiest, so its warm-ups ran longest (47 s of a demo's 314 s). Jupyter is
 *       looked for first, so that its absence is said before minutes of runs; without one the demo runs
 *       and leaves out only the HTML report.</li>
 * </ul>
 */
package io.loadlab.cli;
