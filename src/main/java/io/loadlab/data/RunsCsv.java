package io.loadlab.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Types the {@code runs.csv} of one or more experiment folders into one runs table
 * ({@link RunColumns}), streaming each file a chunk of lines at a time. A row with the wrong number
 * of values, a value of the wrong type or a header that is not one is a {@link DataException}
 * naming the file and line; a last line without its line feed (a row cut off by a kill) is left
 * out. The same folder twice, or two folders holding the same experiment name, are refused: their
 * rounds or run ids would mix. Not thread-safe.
 */
final class RunsCsv {

    /** Rows {@code [from, to)} of the runs table: one folder's runs. */
    record Rows(int from, int to) {
    }

    private static final List<String> REQUIRED = List.of(RunColumn.EXPERIMENT.id(), RunColumn.RUN_ID.id(),
            RunColumn.SUBJECT.id(), RunColumn.WORKLOAD.id(), RunColumn.STATUS.id());

    private final RunColumns columns = new RunColumns();
    private final Set<Path> seen = new HashSet<>();
    private final Map<String, Path> experiments = new HashMap<>();

    /**
     * Reads one folder's runs.csv into the table.
     *
     * @return the rows it added
     * @throws DataException for a folder that is not an experiment, one given before, or a damaged line
     */
    Rows read(Path dir) {
        Path csv = dir.resolve(ExperimentStore.RUNS_FILE);
        if (!Files.isRegularFile(csv)) {
            throw new DataException(dir + " is not an experiment folder: it has no " + ExperimentStore.RUNS_FILE
                    + " (experiments are the folders under data/, such as data/sample)");
        }
        try {
            if (!seen.add(dir.toRealPath())) {
                throw new DataException(dir + " is given twice: its rounds would count double");
            }
        } catch (IOException e) {
            throw new DataException("cannot read " + dir + ": " + e.getMessage(), e);
        }
        int from = columns.rows();
        Set<String> names = new LinkedHashSet<>();
        try (InputStream in = Files.newInputStream(csv)) {
            new File(csv, names).read(LineChunks.of(csv, in));
        } catch (IOException e) {
            throw new DataException("cannot read " + csv + ": " + e.getMessage(), e);
        }
        for (String name : names) {
            // Within one load an experiment is known by its name: two folders may not share one.
            Path other = experiments.putIfAbsent(name, dir);
            if (other != null) {
                throw new DataException(dir + " and " + other + " both hold experiment '" + name
                        + "': their run ids would collide; load them separately or rename one");
            }
        }
        return new Rows(from, columns.rows());
    }

    /** The table of every row read. */
    Table table() {
        return columns.table();
    }

    /** One file being read: its header, then its rows. */
    private final class File {
        private final Path csv;
        private final Set<String> names;
        private List<String> header;
        private Column<?>[] targets;
        private RunColumns.Type[] types;
        private List<Column<?>> absent;
        private int experimentColumn;

        File(Path csv, Set<String> names) {
            this.csv = csv;
            this.names = names;
        }

        void read(LineChunks lines) throws IOException {
            for (LineChunks.Chunk c = lines.next(); c != null; c = lines.next()) {
                for (int i = 0; i < c.count(); i++) {
                    String line = new String(c.bytes(), c.start(i), c.end(i) - c.start(i), StandardCharsets.UTF_8);
                    if (header == null) {
                        header(line);
                    } else if (!line.isEmpty()) {
                        row(line, c.lineNumber(i));
                    }
                }
            }
            if (header == null) {
                header("");
            }
        }

        private void header(String line) {
            if (!line.startsWith("experiment,")) {
                throw new DataException(csv + ":1: not a runs.csv header (it starts with 'experiment,run_id,')");
            }
            header = CsvLines.split(line);
            for (String required : REQUIRED) {
                if (!header.contains(required)) {
                    throw new DataException(csv + ":1: the header lacks the column '" + required + "'");
                }
            }
            if (new HashSet<>(header).size() < header.size()) {
                throw new DataException(csv + ":1: the header names a column twice: " + header);
            }
            targets = header.stream().map(columns::column).toArray(Column<?>[]::new);
            types = header.stream().map(columns::type).toArray(RunColumns.Type[]::new);
            absent = columns.others(header);
            experimentColumn = header.indexOf("experiment");
        }

        private void row(String line, long number) {
            List<String> values;
            try {
                values = CsvLines.split(line);
            } catch (IllegalArgumentException e) {
                throw new DataException(csv + ":" + number + ": damaged row (" + e.getMessage() + ")");
            }
            if (values.size() != header.size()) {
                throw new DataException(csv + ":" + number + ": damaged row: " + values.size() + " values for "
                        + header.size() + " columns");
            }
            for (int c = 0; c < targets.length; c++) {
                String value = values.get(c);
                try {
                    types[c].append(targets[c], value);
                } catch (IllegalArgumentException e) {
                    throw new DataException(csv + ":" + number + ": column '" + header.get(c) + "' holds '" + value
                            + "', which is not a " + types[c].description);
                }
            }
            absent.forEach(Column::appendMissing);
            names.add(values.get(experimentColumn));
            columns.endRow();
        }
    }
}
