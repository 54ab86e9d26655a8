package io.loadlab.plot;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The index of each series among the variants of its subject (0 for the first, in key order), so
 * that variants share their subject's colour yet differ in line style or tint.
 */
final class Variants {

    private final Map<SeriesKey, Integer> index = new HashMap<>();

    Variants(Collection<SeriesKey> keys) {
        Map<String, Integer> next = new HashMap<>();
        for (SeriesKey key : new TreeSet<>(keys)) {
            index.put(key, next.merge(key.subject(), 1, Integer::sum) - 1);
        }
    }

    /** 0 for the first series of a subject, 1 for its second, and so on. */
    int index(SeriesKey key) {
        return index.getOrDefault(key, 0);
    }
}
