package io.loadlab.stats;

import io.loadlab.data.RunColumn;
import io.loadlab.data.Group;
import io.loadlab.format.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;
import tech.tablesaw.api.NumericColumn;

/**
 * The warnings about how a group's successful runs were measured, whatever the metric:
 * not_steady, noisy_machine, rate_not_reached, load_bound and errors. Each reads optional
 * columns: a column an older experiment lacks, or an empty value, means "not measured" and never
 * warns. Stateless.
 */
final class RunWarnings {

    private RunWarnings() {
    }

    /** Runs whose {@code steady} is false: the window began before the throughput settled and the JIT compilers were done. */
    static Optional<Warning> notSteady(RunData data, Group g, List<Integer> okRows) {
        Flagged f = Flagged.of(data, okRows, r -> data.flag(RunColumn.STEADY.id(), r) != 0 ? Optional.empty()
                : Optional.of("warm-up " + data.number(RunColumn.WARMUP_S.id(), r).stream().mapToObj(w -> Units.decimal(w) + " s")
                        .findFirst().orElse("not recorded")));
        return f.warning("not_steady", g, rounds -> g.label() + ": " + RunData.roundList(rounds)
                + " never became steady within the warm-up (" + f.details() + "), so their figures were measured"
                + " before the server settled; a longer warm-up gives it time");
    }

    /**
     * Runs where other processes used more than {@link WarningOptions#maxNoiseCpu} CPU-seconds
     * per second of the window, or the hypervisor stole more than {@link WarningOptions#maxSteal}.
     */
    static Optional<Warning> noisyMachine(RunData data, Group g, List<Integer> okRows, WarningOptions o) {
        Flagged f = Flagged.of(data, okRows, r -> {
            double duration = data.number(RunColumn.DURATION_S.id(), r).orElse(Double.NaN);
            double noise = data.number(RunColumn.NOISE_CPU_S.id(), r).orElse(Double.NaN) / duration;
            double steal = data.number(RunColumn.STEAL_S.id(), r).orElse(Double.NaN) / duration;
            List<String> why = new ArrayList<>();
            if (duration > 0 && noise > o.maxNoiseCpu()) {
                why.add("other processes used " + Units.decimal(noise) + " CPU");
            }
            if (duration > 0 && steal > o.maxSteal()) {
                why.add("the hypervisor stole " + Units.decimal(steal) + " CPU");
            }
            return why.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", why));
        });
        return f.warning("noisy_machine", g, rounds -> String.format(Locale.ROOT,
                "%s: the machine was busy during %s (%s, on average over the window; limits %s and %s CPU): their"
                        + " figures may be lower and noisier than the server's own", g.label(),
                RunData.roundList(rounds), f.details(), Units.exact(o.maxNoiseCpu()), Units.exact(o.maxSteal())));
    }

    /**
     * Fixed-rate runs (a {@code target_rps}) whose {@code rps} fell more than
     * {@link WarningOptions#rateShortfall} below the target, or with requests that were due but
     * never sent ({@code missed} &gt; 0).
     */
    static Optional<Warning> rateNotReached(RunData data, Group g, List<Integer> okRows, WarningOptions o) {
        Flagged f = Flagged.of(data, okRows, r -> {
            double target = data.number(RunColumn.TARGET_RPS.id(), r).orElse(Double.NaN);
            OptionalDouble rps = data.number(RunColumn.RPS.id(), r);
            OptionalDouble missed = data.number(RunColumn.MISSED.id(), r);
            boolean below = rps.isPresent() && rps.getAsDouble() < target * (1 - o.rateShortfall());
            if (!(target > 0) || !(below || missed.orElse(0) > 0)) {
                return Optional.empty();
            }
            return Optional.of(String.format(Locale.ROOT, "target %s, achieved %s, %s", Units.integer(target) + "/s",
                    rps.isPresent() ? Units.integer(rps.getAsDouble()) + "/s" : "not recorded", missed.isPresent()
                            ? String.format(Locale.ROOT, "%,.0f requests missed", missed.getAsDouble())
                            : "missed requests not recorded"));
        });
        return f.warning("rate_not_reached", g, rounds -> g.label() + ": the target rate was not reached in "
                + RunData.roundList(rounds) + " (" + f.details() + "); the server or the load generator could not"
                + " keep up, and the latency of the missed requests is in the tail");
    }

    /** The runs a check flagged, with what it said about each ("round 2: ..."). */
    private record Flagged(RunData data, List<Integer> rows, List<String> notes) {

        static Flagged of(RunData data, List<Integer> okRows, Function<Integer, Optional<String>> check) {
            List<Integer> rows = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (int r : okRows) {
                check.apply(r).ifPresent(note -> {
                    rows.add(r);
                    notes.add("round " + data.round(r) + ": " + note);
                });
            }
            return new Flagged(data, rows, notes);
        }

        String details() {
            return String.join("; ", notes);
        }

        Optional<Warning> warning(String kind, Group g, Function<List<Integer>, String> message) {
            if (rows.isEmpty()) {
                return Optional.empty();
            }
            List<Integer> rounds = data.rounds(rows);
            return Optional.of(Warnings.warning(kind, g, rounds, message.apply(rounds)));
        }
    }

    static Optional<Warning> loadBound(RunData data, Group g, List<Integer> okRows) {
        List<Integer> rounds = data.rounds(okRows.stream().filter(r -> data.flag(RunColumn.LOAD_BOUND.id(), r) == 1).toList());
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Warnings.warning("load_bound", g, rounds, g.label() + ": the load generator was saturated in "
                + RunData.roundList(rounds) + ", so the server may be faster than measured"));
    }

    /** Runs of a server someone else started ({@code server_launch} attached): not pinned by Loadlab. */
    static Optional<Warning> attached(RunData data, Group g, List<Integer> okRows) {
        List<Integer> rows = okRows.stream().filter(r -> data.text(RunColumn.SERVER_LAUNCH.id(), r)
                .equals(RunColumn.ServerLaunch.ATTACHED.value())).toList();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        boolean sampled = rows.stream().allMatch(r -> data.number(RunColumn.SERVER_CPU_S.id(), r).isPresent());
        return Optional.of(Warnings.warning("attached", g, data.rounds(rows), g.label() + ": Loadlab neither started"
                + " nor pinned this server (url: in the project), so it shares CPUs with whatever runs beside it; its"
                + (sampled ? " CPU and RSS are its pid's" : " CPU and RSS were not measured (no pid or pid-file)")));
    }

    static Optional<Warning> errors(RunData data, Group g, List<Integer> okRows) {
        List<NumericColumn<?>> columns = data.table().numericColumns().stream()
                .filter(c -> c.name().startsWith("errors_")).toList();
        Map<String, Double> byKind = new LinkedHashMap<>();
        List<Integer> rows = new ArrayList<>();
        for (int r : okRows) {
            double rowTotal = 0;
            for (NumericColumn<?> c : columns) {
                double v = RunData.value(c, r);
                if (v > 0) {
                    rowTotal += v;
                    byKind.merge(c.name().substring("errors_".length()), v, Double::sum);
                }
            }
            if (rowTotal > 0) {
                rows.add(r);
            }
        }
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        double total = byKind.values().stream().mapToDouble(Double::doubleValue).sum();
        String detail = byKind.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.0f", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
        List<Integer> rounds = data.rounds(rows);
        return Optional.of(Warnings.warning("errors", g, rounds, String.format(Locale.ROOT,
                "%s: %.0f errors in successful %s (%s)", g.label(), total, RunData.roundList(rounds), detail)));
    }
}
