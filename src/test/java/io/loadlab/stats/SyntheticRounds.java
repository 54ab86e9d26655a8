package io.loadlab.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic experiments whose truth is known, as the runner makes them: rounds in which every
 * subject runs once, a machine effect shared by all runs of a round (log-normal), and each run's
 * own noise (log-normal). A subject's true value is the baseline's times its true ratio.
 */
final class SyntheticRounds {

    private final SplittableRandom random;
    private final double machineSd;
    private final double runSd;

    /**
     * @param seed      seed of the random numbers, so that a simulation is repeatable
     * @param machineSd sd of the round's shared effect on the log scale (0.03 = about 3%)
     * @param runSd     sd of each run's own noise on the log scale
     */
    SyntheticRounds(long seed, double machineSd, double runSd) {
        this.random = new SplittableRandom(seed);
        this.machineSd = machineSd;
        this.runSd = runSd;
    }

    /**
     * One experiment: for each true ratio (the baseline's is 1, first), its values over the rounds.
     *
     * @return one list of observations per ratio, in the order given, rounds 1..rounds as blocks
     */
    List<List<RunData.Obs>> experiment(int rounds, double... ratios) {
        List<List<RunData.Obs>> out = new ArrayList<>();
        for (int k = 0; k < ratios.length; k++) {
            out.add(new ArrayList<>());
        }
        for (int r = 1; r <= rounds; r++) {
            double machine = gaussian() * machineSd;
            for (int k = 0; k < ratios.length; k++) {
                double value = 100_000 * ratios[k] * Math.exp(machine + gaussian() * runSd);
                out.get(k).add(new RunData.Obs(k * rounds + r, "exp#" + r, r, value));
            }
        }
        return out;
    }

    /** A standard normal draw (Box–Muller; SplittableRandom has no nextGaussian in Java 17). */
    private double gaussian() {
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
