package io.loadlab.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * {@code docs/reference/data-files.md}: the columns of {@code runs.csv} and {@code agents.csv}, made
 * from {@link RunColumn} and {@link AgentRows.Column}, the one definition each file's readers and
 * writers use. A test compares the committed page with this one; after a change to a column, write
 * it again with {@code java -cp target/loadlab-0.1.0-SNAPSHOT.jar io.loadlab.data.DataFilesReference}.
 */
public final class DataFilesReference {

    /** The page's path in the repository, the one the test reads. */
    public static final Path PAGE = Path.of("docs/reference/data-files.md");

    private DataFilesReference() {
    }

    /** Writes the page to the path given (default {@link #PAGE}). */
    public static void main(String[] args) throws IOException {
        Path page = args.length > 0 ? Path.of(args[0]) : PAGE;
        Files.createDirectories(page.toAbsolutePath().getParent());
        Files.writeString(page, markdown());
    }

    /** The whole page. */
    public static String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Data files reference\n\n")
                .append("The columns of an experiment folder's CSV files, made from the code that reads and writes them\n")
                .append("(`io.loadlab.data.DataFilesReference`; a test fails when this page differs). What each file\n")
                .append("of the folder is, and the committed samples: [data/README.md](../../data/README.md).\n\n")
                .append("An empty value means not measured (an older version, an imported tool that does not say, a\n")
                .append("column that does not apply), never 0. Units are in the names: `_s` seconds, `_us`\n")
                .append("microseconds, `_ms` milliseconds, `_bytes` bytes.\n\n");
        md.append("## `").append(ExperimentStore.RUNS_FILE).append("`\n\n")
                .append("One row per run, in this order; new columns are only ever added at the end. The first ")
                .append(Arrays.stream(RunColumn.values()).filter(RunColumn::fixed).count())
                .append(" columns\nare in every version's file. Values of `status`: ")
                .append(values(RunColumn.Status.values())).append("; of `load_model`: ")
                .append(values(RunColumn.LoadModel.values())).append(";\nof `sweep_role`: ")
                .append(values(RunColumn.SweepRole.values())).append("; of `server_launch`: ")
                .append(values(RunColumn.ServerLaunch.values())).append(".\n\n");
        md.append("| column | type | meaning |\n|---|---|---|\n");
        for (RunColumn c : RunColumn.values()) {
            md.append("| `").append(c.id()).append("` | ").append(c.type().description).append(" | ")
                    .append(c.meaning()).append(" |\n");
        }
        md.append("\n## `").append(AgentRows.FILE).append("`\n\n")
                .append("With `--agents`: one row per agent and run, joined on `runs.csv` by `experiment` and `run_id`.\n\n")
                .append("| column | meaning |\n|---|---|\n");
        for (AgentRows.Column c : AgentRows.Column.values()) {
            md.append("| `").append(c.id()).append("` | ").append(c.meaning()).append(" |\n");
        }
        return md.toString();
    }

    private static String values(RunColumn.Value[] values) {
        return Arrays.stream(values).map(v -> "`" + v.value() + "`").collect(Collectors.joining(", "));
    }
}
