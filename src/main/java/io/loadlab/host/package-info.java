/**
 * This machine's facts, for every package that needs them: the CPUs this JVM may use and pinning with
 * {@code taskset} ({@link Cpus}, {@link Cpus.Split}); {@code /proc}, read in one place with the clock-tick
 * constant ({@link ProcFs}); a process tree's CPU time and resident memory ({@link ProcessTreeStats}),
 * and its JIT compiler threads' CPU time, which a steady-state warm-up waits on ({@link CompilerThreads});
 * the whole machine's CPU time ({@link MachineCpu}); which processes listen on which ports
 * ({@link ListeningSockets}); Loadlab's cache folder ({@link LoadlabCache}); the PATH
 * ({@link Executables}); and the machine's description ({@link Machine}: CPU model, kernel, OS, CPU
 * frequency governor and boost). {@link HostException} when the machine cannot do what a run needs.
 *
 * <p>It uses nothing of Loadlab's: {@code subject}, {@code engine}, {@code experiment}, {@code agent},
 * {@code project} and {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>One reader per source. {@link ProcFs} parses {@code /proc/PID/stat} and its threads'
 *       {@code /proc/PID/task/TID/stat} (after the last {@code )}:
 *       a command name may hold spaces and parentheses) and owns {@link ProcFs#TICKS_PER_SECOND} (USER_HZ,
 *       100). {@link Executables} is the one reader of the PATH, the PATH first and then
 *       {@code <cache>/tools/bin} ({@code scripts/setup} installs oha and zig there), so that a subject's
 *       toolchain check, an engine's tool and {@code taskset} are found by the same rule.</li>
 *   <li>{@link LoadlabCache} is {@code $LOADLAB_CACHE}, else {@code $XDG_CACHE_HOME/loadlab}, else
 *       {@code ~/.cache/loadlab}, the rule {@code scripts/setup} uses too: one cache shared by every
 *       clone on the machine, so a subject is built once per machine, not once per clone.</li>
 *   <li>{@link Cpus#allowed()} is read once, from {@code Cpus_allowed_list}, when Loadlab first looks.
 *       The runner pins this JVM to the load CPUs for an experiment and gives back the allowed CPUs at
 *       its end ({@link Cpus#unpinThisProcess()}), so several experiments in one JShell or notebook
 *       session see the same CPUs. A subject that is not pinned gets {@code {cpus}} and {@code {ncpus}}
 *       from the allowed CPUs, which need not be 0 to n-1.</li>
 *   <li>By default ({@link Cpus#defaultSplit()}) the subject gets the first allowed CPU and the load
 *       the others, so that neither takes the other's CPU time. With one CPU, or without
 *       {@code taskset}, nothing is pinned and {@link Cpus#sharingWarning()} says so (on standard error
 *       and in {@code experiment.json}'s warnings): the runs then measure subject and load together,
 *       which the user must know. {@link Cpus#requireAvailable} refuses a {@code --server-cpus} or
 *       {@code --load-cpus} that names a CPU this JVM may not use.</li>
 *   <li>{@link Cpus#pinThisProcess} runs {@code taskset -a} up to 5 times: it lists the threads, then
 *       pins them one by one, and a thread that ends in between (a pool's idle worker, the engine's
 *       threads of the run before) fails with "No such process" although the JVM lives on.</li>
 *   <li>Machine noise is measured as exactly as the processes' own times it is compared with
 *       ({@link MachineCpu}). A CPU's busy time is its wall time less {@code idle} and {@code iowait}
 *       (which a tickless kernel measures exactly) less {@code steal}; not the sum of the
 *       {@code user}, {@code system} and {@code softirq} columns. Those are ticks, given to whatever
 *       ran when the tick fired, and a server and a load generator that run for microseconds per
 *       request and sleep get far fewer ticks than the scheduler's exact times in
 *       {@code /proc/PID/stat} that are subtracted from busy time: with the columns, a busy loop
 *       pinned beside a run read 0 noise (issue 31). Without {@code CONFIG_IRQ_TIME_ACCOUNTING}
 *       Linux counts the loopback's softirq work in the sending process's own time, so it stays in
 *       both busy time and the processes' times; with {@code CONFIG_IRQ_TIME_ACCOUNTING=y} (read from
 *       {@code /proc/config.gz} or {@code /boot/config-*}) it is in neither, as {@code irq + softirq}
 *       is then taken out of busy time. {@code steal} is the hypervisor's steal time on those CPUs.
 *       Readings are in 10 ms ticks, so a figure is good to a few hundredths of a second. How the
 *       result is checked is in {@code io.loadlab.subject} ({@code ServerSampler}).</li>
 *   <li>A subject's peak RSS is the measured window's, not its lifetime's:
 *       {@link ProcessTreeStats#resetPeak} writes {@code 5} to {@code /proc/PID/clear_refs} of every
 *       process of the tree at the window's start, which resets VmHWM to the current RSS and leaves
 *       the page-reference bits (values 1 to 4) alone; at the end the VmHWM values are summed. Each
 *       process's peak is exact; the sum is an upper bound of the tree's peak when several processes
 *       peak at different moments (one process for most subjects). Where the reset is refused it
 *       returns false, and the column is left empty rather than filled with the lifetime peak.
 *       Sampling would miss short peaks; cgroup v2's {@code memory.peak} would need a cgroup per
 *       subject.</li>
 *   <li>{@link ListeningSockets} reads {@code /proc/net/tcp}, {@code tcp6} and each process's
 *       {@code fd} folder, so that a subject's readiness failure can say it listens on another port
 *       ({@code does its start command pass {port}?}), or that another program took the chosen port
 *       (its pid and command), instead of only "not ready".</li>
 *   <li>{@link ProcFs#running} counts a zombie as ended: it holds no CPU, port or file and needs no
 *       more signals, so stopping a subject does not wait on a process only its parent can reap.</li>
 *   <li>{@link Machine} reports the CPU frequency governor and boost from
 *       {@code /sys/devices/system/cpu}, or "not exposed (...)" naming the files it looked for: a VM
 *       usually has no cpufreq, as the host sets the clock, and a guess would read as a fact.</li>
 * </ul>
 */
package io.loadlab.host;
