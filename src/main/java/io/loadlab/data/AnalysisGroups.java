package io.loadlab.data;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * How analyses group the runs of a table: the one function that {@link Results}' merged
 * histograms and every statistic of {@code io.loadlab.stats} use, so that they agree on what a
 * group is.
 *
 * <p>A group is a subject, variant and workload. Runs of another engine than the built-in one
 * are a variant of their own ({@link RunRow#analysisVariant}). Runs of one subject, variant and
 * workload that were made with different connection counts or target rates (two experiments
 * loaded together, one at {@code -c 16} and one at {@code -c 256}, or fixed-rate runs at several
 * rates) are never pooled: such a group is split, and {@code connections=N} and/or
 * {@code rate=R} is appended to the variant label of each part, only for the setting that
 * differs and only in that group. The decision is made per subject, variant and workload over
 * every row of the table (whatever its status and engine), so the built-in engine's runs and
 * wrk's runs of one subject process carry the same settings in their labels, and a failed run
 * is labelled like the successful ones of its setting. A connection count that was not recorded
 * is the value {@code unknown}; a run without a target rate (a closed loop) has the rate
 * {@code none}. Immutable.
 */
public final class AnalysisGroups {

    /** The label of a missing connection count. */
    public static final String UNKNOWN = "unknown";
    /** The rate label of a run without a target rate. */
    public static final String NO_RATE = "none";

    /**
     * Where one row belongs.
     *
     * @param subject          the subject
     * @param variant          the variant as recorded, "" when none
     * @param engine           the engine, "" for the built-in one
     * @param workload         the workload
     * @param connections      the connection count as text, {@link #UNKNOWN} when not recorded
     * @param rate             the target rate (requests/s) as text, {@link #NO_RATE} for a closed loop; for a
     *                         latency sweep's share of capacity the share, such as {@code 50%}
     * @param splitConnections whether the row's group is split by connection count
     * @param splitRate        whether the row's group is split by rate
     */
    public record Label(String subject, String variant, String engine, String workload, String connections,
                        String rate, boolean splitConnections, boolean splitRate) {

        /** The variant label analyses show: variant, {@code engine=E}, then the settings the group is split by. */
        public String analysisVariant() {
            return join(RunRow.analysisVariant(variant, engine), settingsSuffix());
        }

        /** {@link #analysisVariant()} without the engine: what runs of different engines share. */
        public String variantWithoutEngine() {
            return join(variant, settingsSuffix());
        }

        /** Both settings, whether the group is split or not, e.g. {@code connections=64,rate=none}. */
        public String settings() {
            return "connections=" + connections + ",rate=" + rate;
        }

        private String settingsSuffix() {
            String c = splitConnections ? "connections=" + connections : "";
            return join(c, splitRate ? "rate=" + rate : "");
        }
    }

    /**
     * A subject, variant and workload whose runs differ in a setting, and the values found.
     *
     * @param subject     the subject
     * @param variant     the variant as recorded, "" when none
     * @param workload    the workload
     * @param connections the connection counts, ascending as text; empty when they do not differ
     * @param rates       the rates; empty when they do not differ
     */
    public record Split(String subject, String variant, String workload, List<String> connections,
                        List<String> rates) {
        public Split {
            connections = List.copyOf(connections);
            rates = List.copyOf(rates);
        }
    }

    private final List<Label> labels;
    private final List<Split> splits;

    private AnalysisGroups(List<Label> labels, List<Split> splits) {
        this.labels = List.copyOf(labels);
        this.splits = List.copyOf(splits);
    }

    /**
     * Labels every row of a runs table. Reads the columns subject, variant, workload and, where
     * present, engine, connections and target_rps; a missing column is a missing value.
     *
     * @throws DataException when the table lacks the subject or workload column
     */
    public static AnalysisGroups of(Table runs) {
        for (String c : List.of(RunColumn.SUBJECT.id(), RunColumn.WORKLOAD.id())) {
            if (!runs.containsColumn(c)) {
                throw new DataException("the runs table has no '" + c + "' column: it is not from runs.csv");
            }
        }
        // Each column looked up once: Tablesaw finds a column by comparing every name, ignoring case.
        Column<?>[] text = {column(runs, RunColumn.SUBJECT.id()), column(runs, RunColumn.VARIANT.id()), column(runs, RunColumn.ENGINE.id()),
            column(runs, RunColumn.WORKLOAD.id())};
        Column<?> connections = column(runs, RunColumn.CONNECTIONS.id());
        Column<?> rate = column(runs, RunColumn.TARGET_RPS.id());
        Column<?>[] sweep = {column(runs, RunColumn.SWEEP_ROLE.id()), column(runs, RunColumn.CAPACITY_FRACTION.id())};
        int n = runs.rowCount();
        String[][] rows = new String[n][];
        Map<List<String>, SortedSet<String>[]> values = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            rows[i] = new String[] {text(text[0], i), text(text[1], i), text(text[2], i), text(text[3], i),
                setting(connections, i, UNKNOWN), rate(sweep, rate, i)};
            SortedSet<String>[] sets = values.computeIfAbsent(key(rows[i]), k -> newSets());
            sets[0].add(rows[i][4]);
            sets[1].add(rows[i][5]);
        }
        List<Label> labels = new ArrayList<>(n);
        for (String[] r : rows) {
            SortedSet<String>[] v = values.get(key(r));
            labels.add(new Label(r[0], r[1], r[2].equals("builtin") ? "" : r[2], r[3], r[4], r[5], v[0].size() > 1,
                    v[1].size() > 1));
        }
        List<Split> splits = new ArrayList<>();
        values.forEach((k, v) -> {
            if (v[0].size() > 1 || v[1].size() > 1) {
                splits.add(new Split(k.get(0), k.get(1), k.get(2), v[0].size() > 1 ? new ArrayList<>(v[0]) : List.of(),
                        v[1].size() > 1 ? new ArrayList<>(v[1]) : List.of()));
            }
        });
        return new AnalysisGroups(labels, splits);
    }

    /** The label of a row (0-based, in table order). */
    public Label label(int row) {
        return labels.get(row);
    }

    /** The analysis variant label of a row: {@link Label#analysisVariant()}. */
    public String variant(int row) {
        return labels.get(row).analysisVariant();
    }

    /** The groups that were split, in the order of their first row. */
    public List<Split> splits() {
        return splits;
    }

    @Override
    public String toString() {
        return "AnalysisGroups[" + labels.size() + " runs, " + splits.size() + " groups split by setting]";
    }

    private static List<String> key(String[] row) {
        return List.of(row[0], row[1], row[3]);
    }

    @SuppressWarnings("unchecked")
    private static SortedSet<String>[] newSets() {
        return new SortedSet[] {new TreeSet<>(AnalysisGroups::byNumber), new TreeSet<>(AnalysisGroups::byNumber)};
    }

    /** Numbers in numeric order (16 before 256), then words such as {@link #UNKNOWN}. */
    private static int byNumber(String a, String b) {
        if (a.equals(b)) {
            return 0; // the usual case, every run of a group at one setting: no parsing, no exception for words
        }
        double x = number(a);
        double y = number(b);
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return Double.isNaN(x) == Double.isNaN(y) ? a.compareTo(b) : Double.isNaN(x) ? 1 : -1;
        }
        return x != y ? Double.compare(x, y) : a.compareTo(b);
    }

    private static double number(String s) {
        try {
            // A sweep's share of capacity (50%) sorts among the numbers by its value.
            return Double.parseDouble(s.endsWith("%") ? s.substring(0, s.length() - 1) : s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** A column of the table, or null when it has none of that name. */
    private static Column<?> column(Table runs, String name) {
        return runs.containsColumn(name) ? runs.column(name) : null;
    }

    /** A value as text, "" when the column is absent or the value missing. */
    private static String text(Column<?> c, int row) {
        return c == null || c.isMissing(row) ? "" : c.getString(row).trim();
    }

    /**
     * The rate a row's group is split by: the target rate, except for a latency sweep's share of
     * capacity, which is its share ({@code 50%}): its absolute rate follows each round's measured
     * capacity, and the rounds of one share belong together.
     */
    private static String rate(Column<?>[] sweep, Column<?> rate, int row) {
        return rate(text(sweep[0], row), setting(sweep[1], row, ""), setting(rate, row, NO_RATE));
    }

    /**
     * The rate label of a run from its {@code sweep_role}, {@code capacity_fraction} and
     * {@code target_rps} as text ("" when not recorded): {@code 50%}, {@code 1000} or {@link #NO_RATE}.
     */
    static String rate(String sweepRole, String share, String targetRps) {
        if (sweepRole.equals(RunColumn.SweepRole.FRACTION.value()) && !share.isEmpty()) {
            return RunRow.num(Double.parseDouble(share) * 100) + "%";
        }
        return targetRps.isEmpty() ? NO_RATE : targetRps;
    }

    /** A setting's value as text: whole numbers without decimals; {@code absent} when not recorded. */
    private static String setting(Column<?> c, int row, String absent) {
        if (c == null || c.isMissing(row)) {
            return absent;
        }
        if (c instanceof NumericColumn) {
            double v = ((NumericColumn<?>) c).getDouble(row);
            return Double.isFinite(v) ? RunRow.num(v) : absent;
        }
        String s = c.getString(row).trim();
        return s.isEmpty() ? absent : s;
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "," + b;
    }
}
