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
     * @param group    the subject, its variant as shown (with its engine when not the built-in one and
     *                 the same in both) and the workload; entries are ordered by it
     * @param engineA  the engine of its runs in A; {@code engineB} in B
     * @param a        its values in A, with their rounds; {@code b} in B
     * @param rowsA    its successful rows in A; {@code rowsB} in B
     */
    record Entry(Group group, String engineA, String engineB, List<RunData.Obs> a, List<RunData.Obs> b,
                 List<Integer> rowsA, List<Integer> rowsB) {

        String workload() {
            return group.workload();
        }

        String subject() {
            return group.subject();
        }

        /** The subject with its variant, as {@link Group#subjectLabel()}: {@code go-nethttp [durability=memory]}. */
        String label() {
            return group.subjectLabel();
        }

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

        /** The group as shown for runs of an engine: the engine joins the variant unless it is the built-in one. */
        Group group(String engine) {
            String v = engine.equals(Engines.REFERENCE) ? variant
                    : variant.isEmpty() ? "engine=" + engine : variant + ",engine=" + engine;
            return new Group(subject, v, workload);
        }
    }

    /** The values and rows of one engine's runs. */
    private record Runs(List<RunData.Obs> obs, List<Integer> rows) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Set<Group>> onlyA = new TreeMap<>();
    private final Map<String, Set<Group>> onlyB = new TreeMap<>();

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
                out.onlyA.computeIfAbsent(k.workload, w -> new TreeSet<>()).add(k.group(Engines.REFERENCE));
                continue;
            }
            Set<String> common = new TreeSet<>(e.getValue().keySet());
            common.retainAll(there.keySet());
            for (String engine : common) {
                out.add(k.group(engine), engine, engine, e.getValue().get(engine), there.get(engine));
            }
            if (common.isEmpty() && e.getValue().size() == 1 && there.size() == 1) {
                String ea = e.getValue().firstKey();
                String eb = there.firstKey();
                out.add(k.group(Engines.REFERENCE), ea, eb, e.getValue().get(ea), there.get(eb));
                continue;
            }
            // Runs of an engine the other experiment did not use are measured in one only.
            e.getValue().keySet().stream().filter(x -> !common.contains(x))
                    .forEach(x -> out.onlyA.computeIfAbsent(k.workload, w -> new TreeSet<>()).add(k.group(x)));
            there.keySet().stream().filter(x -> !common.contains(x))
                    .forEach(x -> out.onlyB.computeIfAbsent(k.workload, w -> new TreeSet<>()).add(k.group(x)));
        }
        inB.keySet().stream().filter(k -> !inA.containsKey(k))
                .forEach(k -> out.onlyB.computeIfAbsent(k.workload, w -> new TreeSet<>())
                        .add(k.group(Engines.REFERENCE)));
        return out;
    }

    private void add(Group group, String engineA, String engineB, Runs a, Runs b) {
        entries.add(new Entry(group, engineA, engineB, a.obs(), b.obs(), a.rows(), b.rows()));
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

    /** The subjects met, by workload, subject and variant. */
    List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** Subjects (with variants) of a workload measured in A only, as labels by subject, then variant. */
    List<String> onlyInA(String workload) {
        return labels(onlyA.get(workload));
    }

    /** Subjects (with variants) of a workload measured in B only, as labels by subject, then variant. */
    List<String> onlyInB(String workload) {
        return labels(onlyB.get(workload));
    }

    private static List<String> labels(Set<Group> groups) {
        return groups == null ? List.of() : groups.stream().map(Group::subjectLabel).toList();
    }
}
