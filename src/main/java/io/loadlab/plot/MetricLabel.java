package io.loadlab.plot;

import io.loadlab.data.RunColumn;
import java.util.Objects;
import java.util.Optional;

/**
 * How a metric column is shown: a chart title, an axis title with its unit, and the factor that
 * converts the stored value into that unit (latencies are stored in µs and shown in ms, memory is
 * stored in bytes and shown in MiB).
 *
 * @param column    the column name, such as {@code lat_p99_us}
 * @param title     a short human title, such as {@code "p99 latency"}
 * @param axisTitle the axis title with its unit, such as {@code "p99 latency (ms)"}
 * @param scale     multiply a stored value by this to get the shown value; positive
 */
record MetricLabel(String column, String title, String axisTitle, double scale) {

    private static final double MIB = 1024.0 * 1024.0;

    MetricLabel {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(axisTitle, "axisTitle");
        if (!(scale > 0)) {
            throw new IllegalArgumentException("scale must be positive, got " + scale);
        }
    }

    /** The label of a column of the runs or intervals table; unknown names are shown as they are. */
    static MetricLabel of(String column) {
        return RunColumn.of(column).flatMap(MetricLabel::named).orElseGet(() -> fromSuffix(column));
    }

    /** The runs.csv columns whose names say too little to be shown as they are. */
    private static Optional<MetricLabel> named(RunColumn column) {
        return switch (column) {
            case RPS -> Optional.of(new MetricLabel(column.id(), "Throughput", "requests/s", 1));
            case RPS_PER_SERVER_CPU_S -> Optional.of(new MetricLabel(column.id(), "Throughput per server CPU-second",
                    "requests per server CPU-second", 1));
            case RPS_PER_LOAD_CPU_S -> Optional.of(new MetricLabel(column.id(),
                    "Throughput per load-generator CPU-second", "requests per load CPU-second", 1));
            case SERVER_PEAK_RSS_BYTES -> Optional.of(new MetricLabel(column.id(), "Server peak memory (RSS)",
                    "peak RSS (MiB)", 1 / MIB));
            default -> Optional.empty();
        };
    }

    private static MetricLabel fromSuffix(String column) {
        if (column.endsWith("_us") && (column.startsWith("lat_") || column.startsWith("svc_"))) {
            String kind = column.startsWith("lat_") ? "latency" : "service time";
            String stat = statistic(column.substring(4, column.length() - 3));
            String title = stat + " " + kind;
            // "p99 latency" keeps its lower-case p, the usual spelling; "mean latency" is capitalised.
            String heading = stat.matches("p[0-9.]+") ? title : capitalise(title);
            return new MetricLabel(column, heading, title + " (ms)", 1e-3);
        }
        if (column.endsWith("_bytes")) {
            return new MetricLabel(column, column, column + " (MiB)", 1 / MIB);
        }
        if (column.endsWith("_s")) {
            return new MetricLabel(column, column, column + " (s)", 1);
        }
        return new MetricLabel(column, column, column, 1);
    }

    /** {@code p50} → {@code p50}, {@code p999} → {@code p99.9}; anything else as it is. */
    private static String statistic(String code) {
        if (code.length() > 3 && code.charAt(0) == 'p' && code.chars().skip(1).allMatch(Character::isDigit)) {
            return "p" + code.substring(1, 3) + "." + code.substring(3);
        }
        return code;
    }

    private static String capitalise(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
