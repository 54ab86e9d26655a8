/**
 * The files of an experiment and their vocabulary, and loading them for analysis. {@link ExperimentStore}
 * writes one experiment's folder, {@code data/<name>/}: {@code experiment.json}, {@code runs.csv},
 * {@code latency.hlog}, {@code agents.csv} (inside: {@code FolderLock}, {@code StoreFiles},
 * {@code StoreRepair}, {@code LineChunks}). {@link ExperimentJson} is the one reader and writer of
 * {@code experiment.json} ({@link ExperimentJson.Header}, {@link ExperimentJson.Planned},
 * {@link ExperimentJson.Status}, {@link ExperimentJson.RerunOrigin}, {@link ExperimentJson.ImportedFile};
 * its sections {@link SpecSection} and {@link EnvironmentSection}; {@link RoundsAutoOutcome}, what
 * {@code --rounds auto} did), {@link ExperimentRecord} what it says, as facts. {@link RunColumn} names the
 * {@code runs.csv} columns and the values of {@code status}, {@code sweep_role}, {@code load_model} and
 * {@code server_launch}; {@link RunRow} is one row, {@link AgentRows} the rows of {@code agents.csv},
 * {@link DataFilesReference} the page {@code docs/reference/data-files.md} made from both. {@link Json} is
 * the one Jackson mapper. {@link Results} loads experiments for analysis (the runs as a table, the
 * per-second intervals, the latency merged per {@link Group}, as {@link AnalysisGroups} groups runs;
 * {@link GroupLatency}), {@link RunHistograms} single runs' histograms. {@link DataException} names the
 * file (and line) and what to do.
 *
 * <p>It uses {@code load} (the hlog format, {@code Hlog}, and the per-second {@code IntervalSample}) and
 * {@code bytes} (byte search), and nothing that runs an experiment or computes statistics:
 * {@code experiment}, {@code engine}, {@code importer}, {@code agent}, {@code stats}, {@code plot},
 * {@code kernel}, {@code cli} and {@link io.loadlab.Loadlab} and {@link io.loadlab.Analysis} use it,
 * never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>A kill at any moment loses at most the run in flight. Each run appends its {@code agents.csv}
 *       lines and its histograms to {@code latency.hlog} first, then its row to {@code runs.csv}, each
 *       written whole and forced to disk; {@code experiment.json} is written to a temporary file, forced,
 *       and renamed over the old one. The worst a kill leaves is a partial last line, or histograms of a
 *       run without a row: {@link Results} skips both, and {@link ExperimentStore#open} (on resume,
 *       {@code StoreRepair}) truncates the partial line and drops those histograms and those runs'
 *       {@code agents.csv} lines. A new experiment writes {@code experiment.json} after {@code runs.csv}
 *       and {@code latency.hlog}, so a folder without it holds no experiment and a creation cut short is
 *       simply done again.</li>
 *   <li>The log is repaired as a stream, never read whole: it grows by megabytes a run. {@code LineChunks}
 *       reads it in chunks of whole lines, and the repair makes two passes, one to see whether a line
 *       must go and, only then, one to write the kept lines to a temporary file renamed over the log. A
 *       whole line that a kill cannot have made (a {@code Tag=} line without its comma, a line over
 *       1 MiB) is refused with a {@link DataException} naming the file and line, to fix by hand. 1 MiB
 *       ({@code LineChunks.MAX_LINE_BYTES}) is well above the longest line Loadlab writes, one hlog
 *       histogram (measured: 143 KiB with a random 48-bit count in every bucket), and stops a damaged
 *       file from growing the buffer until the heap is gone.</li>
 *   <li>Names are forced as well as bytes. Forcing a file makes its bytes durable, not its name, so every
 *       file created or renamed in the folder ({@code runs.csv}, {@code latency.hlog},
 *       {@code agents.csv}, the lock, each temporary file renamed over {@code experiment.json},
 *       {@code runs.csv}, {@code latency.hlog} or {@code agents.csv}, itself forced first) is followed by
 *       a force of the folder ({@code StoreFiles.syncDir}: {@code FileChannel.open(dir, READ).force(true)}),
 *       so that after a power cut the names are there as well as the bytes. Not on Windows, which
 *       cannot open a folder as a channel and whose NTFS journals the names itself.</li>
 *   <li>A folder that cannot be written fails before anything starts: {@link ExperimentStore#create}
 *       writes a 4 KiB probe (an empty file fits on a full disk) and refuses with
 *       {@code cannot write to DIR (reason): choose a writable --out folder with free space}, no subject
 *       started. A disk that fills during the experiment: histograms are rendered in memory and written
 *       with a {@code FileChannel}, since a {@code PrintStream} would swallow the OS's error, so the
 *       message names it ({@code No space left on device}), says the runs before are intact and to free
 *       space and {@code --resume}; the experiment ends {@code failed}.</li>
 *   <li>One writer per folder ({@code FolderLock}). {@link ExperimentStore#create} and
 *       {@link ExperimentStore#open} take {@code .loadlab-lock} in the folder with
 *       {@code FileChannel.tryLock} and write the holder's pid into it; the store holds it until
 *       {@link ExperimentStore#close} (an experiment's execution returns or throws, an import ends, a
 *       refused resume gives up). A second {@code loadlab run --out}, {@code --resume} or {@code import} of
 *       the folder meanwhile is refused in one line: {@code DIR is in use by another loadlab run or
 *       --resume (pid N): wait for it to finish (or stop it), then resume DIR}. The kernel releases the
 *       lock when its holder dies, even by SIGKILL, so a crashed run's folder is resumable at once; the
 *       file stays (removing it would race with the next holder's open) and means nothing unlocked. The
 *       lock is not reentrant: a second store of the same folder in one JVM is refused the same way
 *       ({@code ExperimentStoreLockTest}).</li>
 *   <li>{@link RunColumn} is the one definition of the {@code runs.csv} columns, their order and types
 *       ({@link RunRow#COLUMNS} and the loader's types derive from it): units in the suffixes
 *       ({@code _s}, {@code _us}, {@code _bytes}), a value not measured empty, never 0, and a new column
 *       only ever added at the end, since notebooks and users' scripts depend on the order. Every column
 *       is described in {@code docs/reference/data-files.md}, which {@link DataFilesReference} makes from
 *       it and a test compares. {@code --resume} of an experiment written by a version with fewer columns
 *       first rewrites its {@code runs.csv} under today's header (the new columns empty), through a
 *       temporary file renamed over it, so a kill leaves the old file or the new one, whole; columns this
 *       version does not know are refused. {@code agents.csv} ({@link AgentRows}) follows the same rules.</li>
 *   <li>{@link ExperimentJson} keeps the JSON tree it read, so that a field written by another version of
 *       Loadlab, and the order of the fields, survive a resume or an import that rewrites the file.
 *       {@link Json} writes indented, so people can read and diff {@code experiment.json}; the agents'
 *       wire, {@code load --json} and the YAML manifests keep mappers of their own, being other
 *       formats.</li>
 * </ul>
 */
package io.loadlab.data;
