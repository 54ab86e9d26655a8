/**
 * The Jupyter kernel "Java (Loadlab)": Java cells run by JShell inside the kernel's own JVM, with
 * Loadlab's classes on the class path and imported, and Loadlab's values shown as HTML and images.
 * {@link io.loadlab.kernel.KernelMain} is what Jupyter starts (the kernelspec is written by
 * {@code loadlab kernel install}); {@link io.loadlab.kernel.LoadlabKernel} runs cells, with
 * {@code Session} and {@code SessionStart} (one JShell, started once connected), {@code CellExecution}
 * (JShell's local execution engine, with interrupts and heap exhaustion handled), {@code Magics}
 * ({@code %classpath}, {@code %jars}), {@code CellOutput} (printed text in batches), {@code CellHistory}
 * and {@link io.loadlab.kernel.CellError} (a failed cell, named after its Java exception);
 * {@link io.loadlab.kernel.Renderers} says how values look, {@link io.loadlab.kernel.Progress} and
 * {@link io.loadlab.kernel.NotebookProgress} are bars updated in place. The connection is
 * {@code KernelConnection}, whose incoming messages are checked by {@code SignedShellChannel},
 * {@code SignedStdinChannel}, {@code SignedFrames} and {@code MessageVerifier}, after
 * {@code ConnectionChecks} has checked the connection file; {@code ParentWatch} ends the kernel with its
 * notebook; {@link io.loadlab.kernel.ExitGuard} and {@code ExitCallRewriter} keep cells from ending it.
 *
 * <p>It uses {@code experiment} (each cell's {@code ExperimentScope}, the runner's progress), {@code data},
 * {@code stats}, {@code plot} and {@code format} (what it renders, rounded for people), and names
 * {@code engine}, {@code importer}, {@code load} and {@code workload} in the cells' imports; nothing that
 * starts servers, reads the machine or parses the command line ({@code subject}, {@code host},
 * {@code project}, {@code agent}, {@code cli}): {@code cli} (the kernelspec, the archive's training run)
 * and {@code io.loadlab.Loadlab} (a notebook's progress bar) use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>It is built on {@code io.github.spencerpark:jupyter-jvm-basekernel:2.3.0}, IJava's own base
 *       library, not the {@code jjava-jupyter} 1.0-a6 fork: a stable release that has all it needs
 *       (messaging, display data, renderers), where the fork is an alpha whose ready-made kernel is not
 *       served. Both speak protocol 5.3 with Debian 12's Jupyter. Where the base kernel falls short, this
 *       package replaces the part (below) rather than patch the library.</li>
 *   <li>Cells run with JShell's local execution engine, so a cell's values are live objects in the
 *       kernel's JVM that the renderers can show. Loadlab's class path is added with
 *       {@code JShell.addToClasspath} (the {@code --class-path} compiler option would not reach the loader
 *       that runs the snippets); the imports of {@code src/main/jshell/loadlab.jsh} and its
 *       {@code show(table)} run at start-up, from a built-in copy when the file cannot be found
 *       ({@code Startup}; {@code StartupTest} keeps the copy equal to the file). A cell is split into
 *       snippets with {@code SourceCodeAnalysis.analyzeCompletion}; completion, inspection and
 *       {@code is_complete} come from the same source analysis. An expression cell's value is what
 *       JShell's wrapper method returned ({@code CellExecution.onlyResult}): a second snippet that
 *       fetched it was half of a trivial cell's time.</li>
 *   <li>Every output has {@code text/plain}; tables and comparison rows are also an HTML
 *       {@code <table>}, charts a PNG ({@code svg(chart)} for SVG), histograms a table of percentiles
 *       in µs, with numbers rounded by {@code io.loadlab.format}. nbconvert keeps only the richest type
 *       of an output, so these are what reports show.</li>
 *   <li>A failed cell's error carries the Java exception's class name and a traceback in cell lines
 *       ({@code Errors}): {@code KernelConnection} rewrites the {@code error} message and
 *       {@code execute_reply}, which the base kernel names after its own exception class, and adds the
 *       {@code "status": "ok"} that protocol 5.1 requires to the replies whose base classes lack it
 *       (kernel info, shutdown, interrupt, comm info, history).</li>
 *   <li>{@code CellHistory} answers {@code history_request}: without a history manager the base kernel
 *       dropped the request with no reply and no busy/idle statuses, and JupyterLab 4, which takes no
 *       state from the statuses around {@code kernel_info_request}, showed "Unknown" until a cell
 *       ran.</li>
 *   <li>Interrupts are in message mode. Each cell runs inside an {@code ExperimentScope} of its own,
 *       which every experiment the cell executes joins, so an interrupt first stops the cell's
 *       experiments the careful way (files consistent, subjects stopped; up to 30 s each), then repeats
 *       {@code JShell.stop()} every 50 ms until the cell has ended (one stop is lost on a cell that is
 *       still compiling). No JVM-wide list of experiments exists. On Java 17 the stop is
 *       {@code ThreadGroup.stop}, which also wakes {@code sleep}, {@code wait} and
 *       {@code java.util.concurrent} waits, but not blocking I/O; a loop that catches {@code Throwable}
 *       cannot be stopped (restart the kernel).</li>
 *   <li>On Javas without {@code Thread.stop} (25 here), JShell's {@code LocalExecutionControl.load},
 *       which {@code CellExecution} extends, puts a call to {@code REPL.$Cancel$.stopCheck()} at the
 *       start of each method of a cell and before each backward branch; Loadlab provides that class on
 *       the kernel's class path, sets its flag to stop a cell, then interrupts the cell's threads (which
 *       ends {@code sleep} and waits). {@code StopChecks} reads JShell's class file at start: on a JShell
 *       whose checks call another class, JShell is not started and every cell fails saying why, rather
 *       than each with a {@code NoClassDefFoundError}. A cell stops only at its next check, so one
 *       inside a long JDK call (an {@code ArrayList} growing) runs on until it returns: there the stop
 *       for a full heap (below) can come too late.</li>
 *   <li>What a cell prints goes out in batches ({@code CellOutput}: every 50 ms, at 64 KiB, before a
 *       display, at the end), at most 1 MiB per cell (stdout and stderr together), with a note on its
 *       stderr saying how many bytes were left out. The base kernel's message per line made ZeroMQ,
 *       which drops iopub messages once 1000 wait, lose most of a large output and the {@code idle}
 *       status after it, so the cell looked busy for ever.</li>
 *   <li>A cell that fills the heap fails with {@code java.lang.OutOfMemoryError} and the kernel
 *       goes on. The cell's own thread lets go of a reserve (1/32 of the heap, at most 32 MiB) as
 *       it catches the error; once that thread has ended, {@code CellExecution} sets the static
 *       fields of the classes the cell loaded or ran (its variables, those of a cell run again too)
 *       to null, so their memory comes back; the error says which, and how full the heap still is.
 *       ZeroMQ's I/O thread dies of an {@code OutOfMemoryError}, leaving a kernel that never
 *       answers, so a collection that leaves the heap over 90% full while a cell runs stops that
 *       cell with the same error before the heap runs out; the base kernel's shell, control and
 *       heartbeat threads ({@code KernelConnection.connect}) and {@code ParentWatch} carry on after
 *       an {@code Error}.</li>
 *   <li>{@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} in a cell throw a
 *       {@code SecurityException} ("System.exit(0) was refused: it would end the kernel and lose every
 *       variable; restart the kernel from the notebook instead"). {@code CellExecution.load} passes
 *       each class JShell compiles for a cell through {@code ExitCallRewriter}, which points those calls
 *       (and method references such as {@code System::exit}) at {@link io.loadlab.kernel.ExitGuard}'s
 *       static methods. It edits the constant pool and turns {@code invokevirtual Runtime.exit/halt}
 *       into an {@code invokestatic} with the same operand stack, so no instruction changes length,
 *       branch offsets and stack maps stay valid, and it reads any class-file version (no bytecode
 *       library that must know the newest Java). It replaced a security manager, which printed a
 *       deprecation warning on Java 17, needed a flag on 18 to 23 and is gone from 24. Its limit: an exit
 *       made by a library the cell calls ({@code io.loadlab.cli.Main.main}: use {@code Main.execute})
 *       or by reflection still ends the kernel.</li>
 *   <li>Whoever can reach the kernel's ports and sign a message with the connection file's key runs
 *       code as the kernel's user, so the key is what protects it. {@code ConnectionChecks} refuses to
 *       start (exit 2, one line naming the connection file) when the key is empty, unless the kernel
 *       was given {@code --allow-unsigned} ({@code loadlab kernel install --allow-unsigned} puts it in
 *       the kernelspec), and warns on stderr when the file binds beyond loopback (an {@code ip} other
 *       than {@code 127.0.0.1}, {@code ::1} or {@code localhost}; Jupyter's default is
 *       {@code 127.0.0.1}).</li>
 *   <li>The base kernel compared signatures with {@code String.equals}, kept no history (a captured
 *       message ran again), and reads a message in {@code JupyterSocket.readMessage}, which its shell
 *       loop calls with {@code invokespecial}, so it cannot be overridden: {@code KernelConnection.guard}
 *       puts a {@code SignedShellChannel} in place of the shell and control channels before they bind,
 *       with a loop of its own. {@code SignedFrames}, the one reader of incoming messages, refuses a
 *       message over 64 MiB over all its frames (ZeroMQ's {@code maxMsgSize} drops a larger single frame
 *       before allocating it), checks the HMAC in constant time ({@code MessageVerifier},
 *       {@code MessageDigest.isEqual}) and refuses a signature seen among the last 4,096 (a bounded set,
 *       as Jupyter's own kernels keep), logging one line on the kernel's stderr for each message
 *       dropped; then the message is parsed with the base kernel's own Gson and dispatched as the base
 *       loop did. The stdin channel is a {@code SignedStdinChannel}: the base
 *       {@code StdinChannel.getInput} reads a cell's {@code input_reply} through {@code readMessage()}
 *       virtually, so overriding that one method puts each reply through the same checks and verifier (a
 *       forged or replayed reply is dropped and the cell waits for the genuine one). Its ROUTER socket
 *       is {@code ROUTER_MANDATORY} and sends an {@code input_request} only once the frontend's route is
 *       there (at most 10 s): a ROUTER drops a message to an unknown peer without a word, and a cell
 *       that asked for input as the frontend connected waited for ever.</li>
 *   <li>{@code ParentWatch} checks every 500 ms and ends the kernel when its parent process exits or
 *       its connection file has been gone for two checks, so no kernel JVM outlives its notebook. Stdin
 *       is no signal: Jupyter closes the kernel's stdin right after starting it.</li>
 *   <li>The kernel connects to Jupyter first and starts JShell after ({@code SessionStart}), so Jupyter
 *       sees it ready while the compiler loads (about a second, most of a kernel's start); a cell sent
 *       meanwhile waits. The start compiles and drops a throw-away {@code 1 + 1}, so the first real
 *       cell finds the compiler warm; 6 throw-away cells instead of 1 did not move the median of 20
 *       cells and made the first cell come 0.3 to 0.7 s later.</li>
 *   <li>The base kernel's shell and control threads sleep 50 ms between polls of ZeroMQ, so a request
 *       waited 25 ms on average for its thread to wake; {@code KernelConnection.POLL_MS} is
 *       {@code loadlab.kernel.pollMs}, default 2 ms. That costs an idle kernel about 5.5% of a core
 *       (two threads waking 500 times a second; 4 samples of 5 s, {@code /proc} ticks). Loops that wait
 *       in ZeroMQ's poll instead cut it to 1.6%, but with them {@code KernelSurvivalTest}'s kernel
 *       failed to end within 5 s of its shutdown request in 2 of 11 runs (0 of 7 without), so they
 *       were taken out.</li>
 *   <li>{@code IndexKeepingFileManager} (given to {@code JShell.Builder.fileManager}): javac's
 *       {@code JavacTool.getTask} passes {@code --multi-release} to the file manager again for every
 *       task, and javac's file manager drops its index of the class path's folders on any option. A
 *       cell is three javac tasks (parse, the expression's type, compile), so each cell listed the
 *       folders of the kernel's 52 jars three times
 *       ({@code indexPathsAndContainersByRelativeDirectory}, 10% of a warm cell's samples in JFR). The
 *       wrapper passes that option on only when its value changes; a class path that {@code %jars}
 *       adds still reaches javac and drops the index ({@code IndexKeepingFileManagerTest}). The index's
 *       samples are gone from the profile, but the wall-time gain is within the noise: in process,
 *       cells of {@code 1+1} after the start-up snippets, pinned to one core, the paired difference
 *       (without − with) of the median of cells 1–20 was 1.0 ms [−4.5, 6.5] over 8
 *       pairs and 9.3 ms [−5.3, 23.8] over 6 more; of cells 181–200, 7.9 ms
 *       [−2.0, 17.8] (n = 6).</li>
 *   <li>The kernel's JIT ({@code src/main/jvm/kernel-compiler-directives.json}): on machines of up to 4
 *       CPUs the launcher passes the kernel its own flags in {@code -Dloadlab.kernel.jvm.flags}, which
 *       {@code loadlab kernel install} writes after the others: HotSpot compiler directives that keep
 *       javac's and JShell's methods ({@code com/sun/tools/javac/*.*}, {@code jdk/jshell/*.*}) from C2
 *       ({@code c2: { Exclude: true }}), with {@code -XX:+UnlockDiagnosticVMOptions}, and
 *       {@code -XX:+DisplayVMOutputToStderr} so that the JVM's "1 compiler directives added" goes to
 *       stderr. Everything else keeps C2: the cells' own classes, the engine, Netty and the rest of the
 *       JDK. A cell is three javac tasks, and on one core C2's compiles of javac took the CPU from the
 *       cells for the kernel's first hundred cells ({@code -XX:+CITime} in process, one run each: C2
 *       compiled for 5.1 s over the start and 60 cells without the directives, 3.1 s with them; none of
 *       javac's methods reached C2 with them). A/B in alternating runs of 5 kernels
 *       ({@code bench/kernel-start.sh}, one core, {@code -c 100}), median of {@code 1+1}, with / without,
 *       two runs: cells 1–20 98 ms [87, 109] / 102 ms [95, 110] and 87 ms [76, 99] / 90 ms
 *       [76, 105]; cells 41–60 49 ms [42, 57] / 80 ms [70, 89] and 48 ms [42, 55] / 72 ms [64, 80];
 *       cells 81–100 42 ms [37, 46] / 67 ms [59, 74] and 41 ms [37, 46] / 62 ms [50, 73]. So they
 *       do nothing for the first 20 cells and make later cells 1.6× faster.
 *       {@code KernelCompilerDirectivesTest} checks that the Java in use and the newest installed (25)
 *       accept the file: one they cannot parse stops the JVM. Load runs do not get the flags: they
 *       compile no Java, and {@code --json} goes to stdout. Above 4 CPUs the JVM's choice is kept (not
 *       measured).</li>
 *   <li>Why not more: over the first 20 cells, in process, the compiler threads took 59% of the CPU
 *       (C1 0.37 s, C2 0.62 s of 1.68 s, {@code /proc} per thread), C2 compiling the JDK's own code
 *       that javac makes hot (streams, {@code HashMap}, regular expressions), which the engine needs
 *       too. C1 only for the whole JVM ({@code -XX:TieredStopAtLevel=1}) gave warm cells of 39–53
 *       ms and the first cell 1.2 s sooner, but the engine in the same JVM then did 0.757×
 *       [0.549, 1.043] the closed-loop requests per loop CPU-s (n = 3), and C1 code allocates on the hot
 *       path. JIT thresholds scaled to 0.2 for javac's and JShell's methods
 *       ({@code CompileThresholdScaling}) were worse (107 and 108 ms against 89 and 87);
 *       {@code -proc:none} and {@code -Xlint:none} as JShell compiler options changed nothing; the
 *       kernel on Java 25 gave warm cells of 105 ms [90, 120] against 95 [92, 99] on 17 (n = 5 each).</li>
 *   <li>Where a warm cell's time goes, in process (JFR, 2 ms samples): JShell's {@code Eval} nearly
 *       all of it: the expression's type ({@code ExpressionToTypeInfo}, its own javac task) about 30%,
 *       the compile 27%, entering the wrapper's imports and their packages again in every task (the
 *       qualifier of each star import is first looked up as a class, {@code Resolve.loadClass}) 14%,
 *       the parse 12%. Young collections of 30–110 ms come every 15–20 cells (about 5 MB
 *       allocated per cell) and do not move the median. An empty cell's round trip through Jupyter is
 *       about 7 ms (median of 20).</li>
 *   <li>{@code bench/kernel-start.sh} measures start to ready, the first cell and warm {@code 1+1}
 *       through jupyter_client (the kernel on core 1, or {@code KERNEL_CORE=0-1}; the driver on core 0).
 *       At commit 2a5da30 on Java 17.0.15, {@code -n 10 -c 60} on one core (mean of the kernels'
 *       medians, 95% t intervals): start to ready 0.91 s [0.86, 0.95], first cell 2.77 s [2.57, 2.97],
 *       cells 1–20 91 ms [83, 98], 41–60 50 ms [46, 55]; {@code -n 5} on two cores: 0.77 s [0.65, 0.89],
 *       1.03 s [0.82, 1.23], 44 ms [36, 52]. On one core the first 20 cells stay under the 100 ms aimed
 *       at, but not by much (76 to 102 ms with the host's load, runs of 5 kernels).</li>
 *   <li>How it is checked: in-process kernel tests ({@code LoadlabKernelTest}; {@code ExitGuardTest},
 *       every form of exit call, in the test JVM, which would end if one got through); Debian's
 *       {@code jupyter_kernel_test} conformance suite ({@code src/test/python/test_kernel.py}) against a
 *       kernelspec in a temporary prefix; a notebook executed by {@code jupyter nbconvert --execute};
 *       {@code KernelSurvivalTest}, one kernel process with a 256 MiB heap driven over ZeroMQ
 *       ({@code src/test/python/kernel_survival.py}, jupyter_client) through every hostile cell above,
 *       checking replies, output, heartbeats and a clean exit on a shutdown request; the message checks
 *       over real ZeroMQ sockets ({@code SignedShellChannelTest}: a forged or unsigned message, a replay
 *       and a 66 MiB message are dropped while the next good one runs; {@code SignedStdinChannelTest},
 *       {@code MessageVerifierTest}, {@code ConnectionChecksTest}, {@code KernelMainTest} for the empty
 *       key); and {@code KernelOnNewJavaTest}, the kernelspec with the newest Java 24 or later under
 *       {@code /usr/lib/jvm} (skipped with the reason when there is none) through a few cells, the exit
 *       guard and an interrupted sleep loop. The in-process tests run on another Java with
 *       {@code mvn test -Djvm=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}.</li>
 * </ul>
 */
package io.loadlab.kernel;
