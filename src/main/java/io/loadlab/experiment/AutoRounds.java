package io.loadlab.experiment;

import io.loadlab.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code --rounds auto}: the experiment plans {@code maxRounds} rounds and stops earlier once the
 * rule of {@link io.loadlab.stats.RoundsAuto} has decided every comparison with the baseline, or
 * when another round would run past the budget. The spec's {@link ExperimentSpec#rounds()} is then
 * {@code maxRounds}.
 *
 * @param maxRounds the most rounds, at least 3 (the first look is after round 3)
 * @param budget    the wall-clock time one session may take; after a round, the experiment stops when
 *                  the time so far plus the mean time of a round so far would pass it; empty for none
 */
public record AutoRounds(int maxRounds, Optional<Duration> budget) {

    /** The most rounds when {@code --max-rounds} is not given. */
    public static final int DEFAULT_MAX_ROUNDS = 10;

    /** @throws ExperimentException for fewer than 3 rounds or a budget that is not positive */
    public AutoRounds {
        List<String> problems = new ArrayList<>();
        if (maxRounds < io.loadlab.stats.RoundsAuto.FIRST_LOOK) {
            problems.add("max-rounds: rounds auto looks after round " + io.loadlab.stats.RoundsAuto.FIRST_LOOK
                    + " first, so it needs at least " + io.loadlab.stats.RoundsAuto.FIRST_LOOK + ", got " + maxRounds);
        }
        if (budget == null) {
            problems.add("budget: Optional.empty() for none");
        } else if (budget.isPresent() && (budget.get().isNegative() || budget.get().isZero())) {
            problems.add("budget: must be longer than 0, got " + Durations.format(budget.get()));
        }
        ExperimentSpec.refuse(problems);
    }

    /** {@code auto (at most 10 rounds, budget 5m)}. */
    public String describe() {
        return "auto (at most " + maxRounds + " rounds" + budget.map(b -> ", budget " + Durations.format(b)).orElse("")
                + ")";
    }
}
