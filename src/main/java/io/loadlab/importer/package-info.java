/**
 * The load tools Loadlab knows and their rules, reading their outputs, and appending imported runs to an
 * experiment. {@link Tool} is wrk, wrk2, oha, hey, h2load and ab, each with its label (the {@code engine}
 * column), its reader and, for the three Loadlab also runs (wrk, h2load, oha), its install hint, version
 * flag and what it can load ({@link Tool#fixedRate()}, {@link Tool#cannotSpeak}, {@link Tool#cannotRun}).
 * {@link Importers#detect} tells the tool from the content and {@link Importers#parse} reads it into an
 * {@link ImportedRun}, whose fields are {@code runs.csv} column names; {@link ExperimentImport} appends
 * such runs to an experiment folder. {@link ImportException} when an output cannot be read. Inside: one
 * reader per tool family ({@code WrkParser} for wrk and wrk2, {@code HeyParser} for hey and oha's text,
 * {@code OhaJsonParser}, {@code H2loadParser}, {@code AbParser}), {@code Scan} (one output being read) and
 * {@code UnitParser} (the tools' unit suffixes).
 *
 * <p>It uses {@code data} (the {@code runs.csv} columns, the store, {@code experiment.json}) and
 * {@code load} (protocols and request templates, for a tool's rules), and nothing that runs load:
 * {@code engine}, {@code kernel} and {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>{@link Tool} lives here, below the engines, with every rule of a tool in it: the engines read a
 *       tool's output with this package and so cannot be below it, and {@code engine.ToolEngine} asks the
 *       rules instead of testing which tool it holds.</li>
 *   <li>An imported run and an engine's run fill the same columns: {@link ImportedRun#FIELDS} are
 *       {@code data.RunColumn} ids, units and k/M suffixes are normalised (KB/MB/GB as powers of 1024, as
 *       wrk and h2load compute them), and a value a tool does not print stays empty, never 0. oha's text
 *       uses the time unit it picks per run and prints NaN or inf, its JSON null, when nothing was
 *       answered: those are left empty. wrk prints socket errors and non-2xx answers, ab write errors and
 *       non-2xx answers, only when there were some, so an absent line there is 0. oha's rate is its
 *       answers per second of the run, since its own Requests/sec also counts the requests aborted at
 *       its deadline and the errors.</li>
 *   <li>Every failure is one line that names the tool and quotes the line it could not read
 *       ({@code Scan}): the file is the user's, and a stack trace says nothing about what to fix.</li>
 *   <li>A file is read up to {@link Importers#MAX_FILE_BYTES} (64 MiB; a run's output is KiB, wrk2's
 *       full percentile spectrum well under 1 MiB), one byte past the cap rather than by its size, since
 *       a device or a pipe has none; a larger file is refused in one line naming it, before it can
 *       exhaust the heap.</li>
 *   <li>{@code HeyParser}'s patterns match numbers and runs of blanks possessively, and it cuts the error
 *       distribution into messages by hand, each scanned once: a lazy {@code .+?} followed by a
 *       look-ahead for the next {@code [n]} rescanned the rest of a blank run at every character
 *       (quadratic: minutes for a line of 100,000 blanks).</li>
 *   <li>{@link ExperimentImport} appends through {@code data.ExperimentStore}, holding the folder's lock
 *       while it writes: each file is one round of its subject, variant and workload, run ids continuing
 *       after the recorded ones. A folder without an experiment becomes one marked
 *       {@code "imported": true}, with no spec to run: {@code rerun} refuses it and {@code run --resume}
 *       cannot plan it. The command
 *       reads every file before writing anything, so one unreadable file writes nothing: a partial
 *       import would be easy to miss. Machine and version facts not given to the import are recorded as
 *       {@link ExperimentImport#NOT_GIVEN}, never blank.</li>
 * </ul>
 */
package io.loadlab.importer;
