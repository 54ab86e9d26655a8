package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.TreeSet;

/**
 * How a set of runs was made, read from their rows: the settings each row records (connections,
 * server and load CPUs, engine threads, engine) and what the runs met (the warm-up used, whether
 * the throughput became steady, load-bound windows, machine noise and steal). For the
 * environment table and the facts listed next to a pair of subjects that two experiments
 * disagree on. A value the rows do not hold is unknown, never a default.
 */
final class SetupFacts {

    /** How two values of a fact are held against each other. */
    enum Kind {
        /** As text. */
        TEXT,
        /** A duration: differs when one is 0 and the other not, or one is over 1.5 times the other. */
        DURATION,
        /** A share of runs: differs when one is none, some or all and the other another of the three, or by over 25 points. */
        SHARE,
        /** A rate of machine noise: differs when one is above its warning threshold and the other not. */
        NOISE,
        /** Steal: the same with steal's threshold. */
        STEAL
    }

    /**
     * One fact.
     *
     * @param name  what it is, e.g. {@code connections}
     * @param text  its value as people read it; starts with {@code unknown} when not recorded
     * @param value the number behind it (NaN for text facts)
     * @param kind  how two values are compared
     */
    record Fact(String name, String text, double value, Kind kind) {

        boolean known() {
            return !io.loadlab.data.ExperimentRecord.isUnknown(text);
        }

        /** Whether two known values differ in a way worth naming. */
        boolean differs(Fact other) {
            return switch (kind) {
                case TEXT -> !text.equals(other.text);
                case DURATION -> (value == 0) != (other.value == 0)
                        || Math.max(value, other.value) > 1.5 * Math.min(value, other.value);
                case SHARE -> shareClass(value) != shareClass(other.value) || Math.abs(value - other.value) > 0.25;
                case NOISE -> (value > WarningOptions.defaults().maxNoiseCpu())
                        != (other.value > WarningOptions.defaults().maxNoiseCpu());
                case STEAL -> (value > WarningOptions.defaults().maxSteal())
                        != (other.value > WarningOptions.defaults().maxSteal());
            };
        }

        /** 0 for none, 2 for all, 1 between. */
        private static int shareClass(double share) {
            return share == 0 ? 0 : share == 1 ? 2 : 1;
        }
    }

    private SetupFacts() {
    }

    /** The facts of the given rows (successful runs of one group or of one experiment), in reading order. */
    static List<Fact> of(RunData data, List<Integer> rows) {
        List<Fact> out = new ArrayList<>();
        out.add(text("connections", distinct(data, RunColumn.CONNECTIONS.id(), rows)));
        out.add(text("server CPUs", cpus(distinct(data, RunColumn.SERVER_CPUS.id(), rows))));
        out.add(text("load CPUs", cpus(distinct(data, RunColumn.LOAD_CPUS.id(), rows))));
        out.add(text("engine threads", distinct(data, RunColumn.THREADS.id(), rows)));
        out.add(text("engine", distinct(data, RunColumn.ENGINE.id(), rows)));
        out.add(warmup(data, rows));
        out.add(share("steady runs", data, RunColumn.STEADY.id(), rows));
        out.add(share("load-bound runs", data, RunColumn.LOAD_BOUND.id(), rows));
        out.add(perSecond("machine noise", "CPU-s per s", data, RunColumn.NOISE_CPU_S.id(), rows, Kind.NOISE));
        out.add(perSecond("steal", "s per s", data, RunColumn.STEAL_S.id(), rows, Kind.STEAL));
        return out;
    }

    private static Fact text(String name, String value) {
        return new Fact(name, value, Double.NaN, Kind.TEXT);
    }

    /** The distinct values of a column over the rows, joined; unknown when none is recorded. */
    private static String distinct(RunData data, String column, List<Integer> rows) {
        TreeSet<String> values = new TreeSet<>();
        for (int r : rows) {
            OptionalDouble n = data.number(column, r);
            String v = n.isPresent() ? io.loadlab.data.RunRow.num(n.getAsDouble()) : data.text(column, r);
            if (!v.isEmpty()) {
                values.add(v);
            }
        }
        return values.isEmpty() ? io.loadlab.data.ExperimentRecord.NOT_RECORDED : String.join(" and ", values);
    }

    /** A CPU list with its count, {@code 2 (0-1)}. */
    private static String cpus(String lists) {
        if (io.loadlab.data.ExperimentRecord.isUnknown(lists)) {
            return lists;
        }
        List<String> out = new ArrayList<>();
        for (String list : lists.split(" and ")) {
            out.add(count(list) + " (" + list + ")");
        }
        return String.join(" and ", out);
    }

    /** How many CPUs a taskset list such as {@code 0-1,4} names; 0 when it is not such a list. */
    static int count(String list) {
        int n = 0;
        for (String part : list.split(",")) {
            String[] ends = part.trim().split("-");
            try {
                n += ends.length == 1 ? 1 : Integer.parseInt(ends[1].trim()) - Integer.parseInt(ends[0].trim()) + 1;
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return n;
    }

    private static Fact warmup(RunData data, List<Integer> rows) {
        double[] w = rows.stream().map(r -> data.number(RunColumn.WARMUP_S.id(), r)).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).sorted().toArray();
        if (w.length == 0) {
            return new Fact("warm-up (median)", io.loadlab.data.ExperimentRecord.NOT_RECORDED, Double.NaN, Kind.DURATION);
        }
        double median = Summary.median(w);
        return new Fact("warm-up (median)", median == 0 ? "none (0 s)" : Units.decimal(median) + " s", median,
                Kind.DURATION);
    }

    private static Fact share(String name, RunData data, String column, List<Integer> rows) {
        int known = 0;
        int yes = 0;
        for (int r : rows) {
            int f = data.flag(column, r);
            if (f >= 0) {
                known++;
                yes += f;
            }
        }
        if (known == 0) {
            return new Fact(name, io.loadlab.data.ExperimentRecord.NOT_RECORDED, Double.NaN, Kind.SHARE);
        }
        String text = yes == 0 ? "none of " + known : yes == known ? "all " + known : yes + " of " + known;
        return new Fact(name, text, (double) yes / known, Kind.SHARE);
    }

    /** A column's sum over the windows' seconds, where both are recorded. */
    private static Fact perSecond(String name, String unit, RunData data, String column, List<Integer> rows, Kind kind) {
        double sum = 0;
        double seconds = 0;
        for (int r : rows) {
            OptionalDouble v = data.number(column, r);
            OptionalDouble d = data.number(RunColumn.DURATION_S.id(), r);
            if (v.isPresent() && d.isPresent()) {
                sum += v.getAsDouble();
                seconds += d.getAsDouble();
            }
        }
        if (seconds <= 0) {
            return new Fact(name, io.loadlab.data.ExperimentRecord.NOT_RECORDED, Double.NaN, kind);
        }
        return new Fact(name, Units.decimal(sum / seconds) + " " + unit, sum / seconds, kind);
    }
}
