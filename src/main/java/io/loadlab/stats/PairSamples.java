package io.loadlab.stats;

import io.loadlab.data.AnalysisGroups;
import io.loadlab.data.Group;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import tech.tablesaw.api.NumericColumn;

/**
 * The subjects two experiments both measured, on each workload: the groups of each experiment
 * ({@link AnalysisGroups}) met by subject, variant and workload. Runs of one engine are met with
 * the other experiment's runs of the same engine; a subject measured by a single engine in each
 * experiment, but not the same one (the built-in engine here, wrk in an imported chart), is met
 * across engines, which its facts then name.
 */
final class PairSamples {

    /**
     * One subject on one workload, measured in both experiments.
     *
     * @param workload the workload
     * @param subject  the subject's name
     * @param label    the subject with its variant (and its engine when not the built-in one and the
     *                 same in both), as {@code go-nethttp[durability=memory]}
     * @param engineA  the engine of its runs in A; {@code engineB} in B
     * @param a        its values in A, with their rounds; {@code b} in B
     * @param rowsA    its successful rows in A; {@code rowsB} in B
     */
    record Entry(String workload, String subject, String label, String engineA, String engineB, List<RunData.Obs> a,
                 List<RunData.Obs> b, List<Integer> rowsA, List<Integer> rowsB) {

        /** The engines as a column shows them: {@code builtin}, or {@code builtin / wrk} when they differ. */
        String engines() {
            return engineA.equals(engineB) ? engineA : engineA + " / " + engineB;
        }
    }

    /** A subject variant on a workload, whatever the engine. */
    private record Key(String subject, String variant, String workload) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int w = workload.compareTo(o.workload);
            int s = w != 0 ? w : subject.compareTo(o.subject);
            return s != 0 ? s : variant.compareTo(o.variant);
        }

        String label(String engine) {
            String v = engine.equals(Engines.REFERENCE) ? variant
                    : variant.isEmpty() ? "engine=" + engine : variant + ",engine=" + engine;
            return v.isEmpty() ? subject : subject + "[" + v + "]";
        }
    }

    /** The values and rows of one engine's runs. */
    private record Runs(List<RunData.Obs> obs, List<Integer> rows) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Set<String>> onlyA = new TreeMap<>();
    private final Map<String, Set<String>> onlyB = new TreeMap<>();

    private PairSamples() {
    }

    /** Meets the groups of A and B that have values of the metric. */
    static PairSamples of(RunData a, RunData b, String metric) {
        SortedMap<Key, SortedMap<String, Runs>> inA = byKey(a, a.metric(metric));
        SortedMap<Key, SortedMap<String, Runs>> inB = byKey(b, b.metric(metric));
        PairSamples out = new PairSamples();
        for (Map.Entry<Key, SortedMap<String, Runs>> e : inA.entrySet()) {
            Key k = e.getKey();
            SortedMap<String, Runs> there = inB.get(k);
            if (there == null) {
                out.onlyA.computeIfAbsent(k.workload, w -> new TreeSet<>()).add(k.label(Engines.REFERENCE));
                continue;
            }
            Set<String> common = new TreeSet<>(e.getValue().keySet());
            common.retainAll(there.keySet());
            for (String engine : common) {
                out.add(k, k.label(engine), engine, engine, e.getValue().get(engine), there.get(engine));
            }
            if (common.isEmpty() && e.getValue().size() == 1 && there.size() == 1) {
                String ea = e.getValue().firstKey();
                String eb = there.firstKey();
                out.add(k, k.label(Engines.REFERENCE), ea, eb, e.getValue().get(ea), there.get(eb));
                continue;
            }
            // Runs of an engine the other experiment did not use are measured in one only.
            e.getValue().keySet().stream().filter(x -> !common.contains(x))
                    .forEach(x -> out.onlyA.computeIfAbsent(k.workload, w -> new TreeSet<>()).add(k.label(x)));
            there.keySet().stream().filter(x -> !common.contains(x))
                    .forEach(x -> out.onlyB.computeIfAbsent(k.workload, w -> new TreeSet<>()).add(k.label(x)));
        }
        inB.keySet().stream().filter(k -> !inA.containsKey(k))
                .forEach(k -> out.onlyB.computeIfAbsent(k.workload, w -> new TreeSet<>()).add(k.label(Engines.REFERENCE)));
        return out;
    }

    private void add(Key k, String label, String engineA, String engineB, Runs a, Runs b) {
        entries.add(new Entry(k.workload, k.subject, label, engineA, engineB, a.obs(), b.obs(), a.rows(), b.rows()));
    }

    private static SortedMap<Key, SortedMap<String, Runs>> byKey(RunData data, NumericColumn<?> column) {
        SortedMap<Key, SortedMap<String, Runs>> out = new TreeMap<>();
        for (Map.Entry<Group, List<Integer>> e : data.okRows().entrySet()) {
            List<RunData.Obs> obs = data.values(column, e.getValue());
            if (obs.isEmpty()) {
                continue;
            }
            AnalysisGroups.Label l = data.label(e.getValue().get(0));
            String engine = l.engine().isEmpty() ? Engines.REFERENCE : l.engine();
            out.computeIfAbsent(new Key(l.subject(), l.variantWithoutEngine(), l.workload()), x -> new TreeMap<>())
                    .put(engine, new Runs(obs, e.getValue()));
        }
        return out;
    }

    /** The subjects met, by workload, then label. */
    List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** Subjects (with variants) of a workload measured in A only. */
    Set<String> onlyInA(String workload) {
        return onlyA.getOrDefault(workload, Set.of());
    }

    /** Subjects (with variants) of a workload measured in B only. */
    Set<String> onlyInB(String workload) {
        return onlyB.getOrDefault(workload, Set.of());
    }
}
