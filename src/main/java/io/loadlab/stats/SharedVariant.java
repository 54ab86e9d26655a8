package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.data.RunColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The variant settings that every run of an experiment has, such as {@code durability=memory},
 * which every subject gets at its default: said once (by {@link #sentence()}), they are left out of
 * each label, so that a table reads {@code go-nethttp} rather than {@code go-nethttp
 * [durability=memory]} in every row and legend. Settings that tell subjects apart stay.
 *
 * @param settings the shared settings, {@code key=value} in the order of the first run's variant;
 *                 empty when the runs share none (or have no variant)
 */
public record SharedVariant(List<String> settings) {

    public SharedVariant {
        settings = List.copyOf(settings);
    }

    /** The settings every row of {@code runs} has in its variant column (none for an empty table). */
    public static SharedVariant of(Table runs) {
        StringColumn variants = runs.stringColumn(RunColumn.VARIANT.id());
        Set<String> shared = null;
        for (String v : variants) {
            Set<String> own = new LinkedHashSet<>(split(v));
            if (shared == null) {
                shared = own;
            } else {
                shared.retainAll(own);
            }
        }
        return new SharedVariant(shared == null ? List.of() : new ArrayList<>(shared));
    }

    /** A copy of {@code runs} whose variant column leaves the shared settings out. */
    public Table strip(Table runs) {
        Table copy = runs.copy();
        if (settings.isEmpty()) {
            return copy;
        }
        StringColumn variant = copy.stringColumn(RunColumn.VARIANT.id());
        for (int i = 0; i < variant.size(); i++) {
            variant.set(i, variant(variant.get(i)));
        }
        return copy;
    }

    /** A variant without the shared settings: {@code durability=memory,protocol=h2-tls} to {@code protocol=h2-tls}. */
    public String variant(String variant) {
        List<String> kept = new ArrayList<>(split(variant));
        kept.removeAll(settings);
        return String.join(",", kept);
    }

    /**
     * A subject label without the shared settings: {@code go-nethttp [durability=memory]} (or
     * {@code go-nethttp[durability=memory]}, as older versions wrote it) to {@code go-nethttp}.
     */
    public String label(String label) {
        int open = label.indexOf('[');
        if (open < 0 || !label.endsWith("]")) {
            return label;
        }
        return Group.subjectLabel(label.substring(0, open).strip(), variant(label.substring(open + 1, label.length() - 1)));
    }

    /** The same values under labels without the shared settings, in the same order. */
    public <V> Map<String, V> relabel(Map<String, V> byLabel) {
        Map<String, V> out = new LinkedHashMap<>();
        byLabel.forEach((k, v) -> out.put(label(k), v));
        return out;
    }

    /** The sentence that says them once, or "" when there are none. */
    public String sentence() {
        return settings.isEmpty() ? ""
                : "Every run had " + String.join(", ", settings) + "; the labels below leave "
                        + (settings.size() == 1 ? "it" : "them") + " out.";
    }

    private static List<String> split(String variant) {
        return variant == null || variant.isBlank() ? List.of()
                : Arrays.stream(variant.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
