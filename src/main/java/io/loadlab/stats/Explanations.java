package io.loadlab.stats;

import io.loadlab.data.ExperimentRecord;
import io.loadlab.data.SpecSection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What differs between two experiments next to one pair of subjects: the set-up of the pair's
 * own runs (connections, CPUs, engine, warm-up, steadiness, load-bound windows, noise), the
 * subjects' versions and sources, and the machine and settings of the experiments. Facts only:
 * which of them moved the ratio is for a person to find out (by a rerun that changes one).
 */
final class Explanations {

    /** Settings of the spec that the runs' own facts state per subject, and better. */
    private static final Set<String> STATED_BY_RUNS = Set.of(SpecSection.CONNECTIONS, SpecSection.THREADS,
            SpecSection.SERVER_CPUS, SpecSection.LOAD_CPUS, SpecSection.ENGINES);

    private Explanations() {
    }

    /**
     * The facts that differ, each a line such as {@code connections: 16 in A, 256 in B}, then one
     * line naming what one experiment did not record.
     *
     * @param x  the subject, {@code y} the baseline
     * @param la the name of A in the lines ({@code A}), {@code lb} of B
     */
    static List<String> of(PairSamples.Entry x, PairSamples.Entry y, RunData a, RunData b, ExperimentRecord ra,
                           ExperimentRecord rb, String la, String lb) {
        List<String> out = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<SetupFacts.Fact> xa = SetupFacts.of(a, x.rowsA());
        List<SetupFacts.Fact> xb = SetupFacts.of(b, x.rowsB());
        List<SetupFacts.Fact> ya = SetupFacts.of(a, y.rowsA());
        List<SetupFacts.Fact> yb = SetupFacts.of(b, y.rowsB());
        for (int i = 0; i < xa.size(); i++) {
            runFact(out, unknown, x.label(), xa.get(i), xb.get(i), y.label(), ya.get(i), yb.get(i), la, lb);
        }
        Set<String> names = new java.util.LinkedHashSet<>(ra.facts().keySet());
        names.addAll(rb.facts().keySet());
        for (String name : names) {
            if (relevant(name, x, y) && !STATED_BY_RUNS.contains(name)) {
                recordFact(out, unknown, name, ra, rb, la, lb);
            }
        }
        if (!unknown.isEmpty()) {
            out.add("not known in one of them (so not known to be the same): " + String.join(", ", unknown));
        }
        return out;
    }

    /** Machine and settings facts, and only the versions and sources of the two subjects and their engines. */
    private static boolean relevant(String name, PairSamples.Entry x, PairSamples.Entry y) {
        for (String prefix : List.of("version of ", "sources of ")) {
            if (name.startsWith(prefix)) {
                String s = name.substring(prefix.length());
                return s.equals(x.subject()) || s.equals(y.subject());
            }
        }
        if (name.startsWith("engine ")) {
            String e = name.substring("engine ".length());
            return List.of(x.engineA(), x.engineB(), y.engineA(), y.engineB()).contains(e);
        }
        return true;
    }

    private static void runFact(List<String> out, List<String> unknown, String x, SetupFacts.Fact xa,
                                SetupFacts.Fact xb, String y, SetupFacts.Fact ya, SetupFacts.Fact yb, String la,
                                String lb) {
        if (!xa.known() || !xb.known() || !ya.known() || !yb.known()) {
            unknown.add(xa.name() + " of the runs");
            return;
        }
        if (!xa.differs(xb) && !ya.differs(yb)) {
            return;
        }
        if (xa.text().equals(ya.text()) && xb.text().equals(yb.text())) {
            out.add(xa.name() + ": " + xa.text() + " in " + la + ", " + xb.text() + " in " + lb);
        } else {
            out.add(xa.name() + ": " + x + " " + xa.text() + " in " + la + ", " + xb.text() + " in " + lb + "; " + y + " "
                    + ya.text() + " in " + la + ", " + yb.text() + " in " + lb);
        }
    }

    private static void recordFact(List<String> out, List<String> unknown, String name, ExperimentRecord ra,
                                   ExperimentRecord rb, String la, String lb) {
        String va = ra.fact(name);
        String vb = rb.fact(name);
        boolean ka = !ExperimentRecord.isUnknown(va);
        boolean kb = !ExperimentRecord.isUnknown(vb);
        if (ka && kb && !va.equals(vb)) {
            out.add(name + ": " + va + " in " + la + ", " + vb + " in " + lb);
        } else if (!ka || !kb) {
            unknown.add(name);
        }
    }
}
