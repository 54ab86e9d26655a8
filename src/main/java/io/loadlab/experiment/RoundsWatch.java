package io.loadlab.experiment;

import io.loadlab.data.ExperimentJson;
import io.loadlab.data.ExperimentStore;
import io.loadlab.data.Results;
import io.loadlab.data.RoundsAutoOutcome;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.RoundsAuto;
import io.loadlab.time.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The runner's side of {@code --rounds auto}: told where each round begins, it looks at the rounds
 * recorded so far with {@link RoundsAuto}'s rule after every round from the third on, records each
 * look in {@code experiment.json} ({@link RoundsAutoOutcome}), and says when the experiment stops.
 * The budget counts this session's time: a resumed experiment gets the budget again. One per
 * {@link Runner#execute} call; not thread-safe.
 */
final class RoundsWatch {

    private final Optional<AutoRounds> auto;
    private final long start = System.nanoTime();
    /** The round whose runs are running; 0 before the first. */
    private int current;
    /** Rounds that ran (some of their runs at least) in this session. */
    private int ranHere;
    private boolean stopped;

    RoundsWatch(ExperimentSpec spec) {
        this.auto = spec.autoRounds();
    }

    /**
     * Called before each run of {@code round}: when the run begins a round, looks at the rounds
     * before it, records the look and says whether the experiment stops here instead.
     */
    boolean stopBefore(int round, ExperimentStore store, ExperimentJson json) {
        if (auto.isEmpty() || round == current) {
            return false;
        }
        boolean resumed = current == 0;
        current = round;
        if (!resumed) {
            ranHere++;
        }
        int finished = round - 1;
        if (finished < 1) {
            return false;
        }
        return record(look(finished, store), store, json, false);
    }

    /** Called when every planned run ran: records why the rounds stopped (the most rounds, or decided at the last look). */
    void end(ExperimentStore store, ExperimentJson json) {
        if (auto.isEmpty() || stopped || current == 0) {
            return;
        }
        ranHere++;
        record(look(current, store), store, json, true);
    }

    /** The look after {@code round}; empty before the third round. */
    private Optional<RoundsAuto.Look> look(int round, ExperimentStore store) {
        if (round < RoundsAuto.FIRST_LOOK) {
            return Optional.empty();
        }
        return Optional.of(RoundsAuto.look(Results.load(store.dir()).runs(), round, auto.get().maxRounds(),
                CompareOptions.defaults()));
    }

    /** Writes what the look found and whether it stops; true when it stops. */
    private boolean record(Optional<RoundsAuto.Look> look, ExperimentStore store, ExperimentJson json, boolean last) {
        int round = last ? current : current - 1;
        RoundsAutoOutcome.Stop stop = RoundsAutoOutcome.Stop.RUNNING;
        String reason = look.map(RoundsAuto.Look::toString).orElse("no look before round " + RoundsAuto.FIRST_LOOK);
        if (look.isPresent() && look.get().allDecided()) {
            stop = RoundsAutoOutcome.Stop.DECIDED;
        } else if (last) {
            stop = RoundsAutoOutcome.Stop.MAX_ROUNDS;
        } else if (overBudget()) {
            stop = RoundsAutoOutcome.Stop.BUDGET;
            reason += String.format(java.util.Locale.ROOT, "; another round would pass the budget of %s (%s so far)",
                    Durations.format(auto.get().budget().orElseThrow()), Durations.format(elapsed()));
        }
        CompareOptions options = CompareOptions.defaults();
        List<RoundsAutoOutcome.Compared> compared = look.map(l -> l.decisions().stream()
                .map(d -> new RoundsAutoOutcome.Compared(d.subject(), d.workload(), d.verdict().label(), d.decided(),
                        d.ratio(), d.pTest())).toList()).orElse(List.of());
        json.roundsAuto(new RoundsAutoOutcome(round, stop, reason, auto.get().maxRounds(),
                auto.get().budget().map(Durations::format), options.alpha(),
                RoundsAuto.perLook(options, auto.get().maxRounds()).alpha(), RoundsAuto.METRIC,
                look.map(RoundsAuto.Look::baseline).orElse(""), compared));
        store.writeJson(json);
        stopped = stop != RoundsAutoOutcome.Stop.RUNNING;
        return stopped;
    }

    /** Whether another round, as long as this session's rounds took on average, would pass the budget. */
    private boolean overBudget() {
        if (auto.get().budget().isEmpty() || ranHere == 0) {
            return false;
        }
        Duration spent = elapsed();
        return spent.plus(spent.dividedBy(ranHere)).compareTo(auto.get().budget().get()) > 0;
    }

    private Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
