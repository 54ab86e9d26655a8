package io.loadlab.cli;

import io.loadlab.experiment.AutoRounds;
import io.loadlab.experiment.ExperimentSpec;
import io.loadlab.time.Durations;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How many rounds {@code loadlab run} runs: {@code --rounds N}, or {@code --rounds auto} with
 * {@code --max-rounds} and {@code --budget} (a project file's plan takes the same names).
 */
final class RoundsOptions {

    /** The value of {@code --rounds} that stops when the comparisons are decided. */
    static final String AUTO = "auto";

    @Option(names = "--rounds", paramLabel = "N|auto",
            description = {"rounds, or 'auto': after each round from the third on, stop once every comparison with",
                    "the baseline (rps) is decided, at a level split over the looks (docs/methodology.md)",
                    "(default: ${DEFAULT-VALUE})"})
    String rounds = Integer.toString(ExperimentSpec.builder().name("defaults").build().rounds());

    @Option(names = "--max-rounds", paramLabel = "N",
            description = "with --rounds auto: the most rounds (default: " + AutoRounds.DEFAULT_MAX_ROUNDS + ")")
    Integer maxRounds;

    @Option(names = "--budget", paramLabel = "D",
            description = {"with --rounds auto: the time the rounds may take, e.g. 10m; it stops before a round",
                    "that would pass it (default: none)"})
    String budget;

    /**
     * Sets the rounds of {@code builder}.
     *
     * @throws CliException for a value that is neither a number nor auto, or --max-rounds or --budget
     *                      without auto
     */
    ExperimentSpec.Builder apply(ExperimentSpec.Builder builder) {
        String r = rounds.strip().toLowerCase(Locale.ROOT);
        if (r.equals(AUTO)) {
            return builder.autoRounds(new AutoRounds(maxRounds == null ? AutoRounds.DEFAULT_MAX_ROUNDS : maxRounds,
                    Optional.ofNullable(budget).map(Durations::parse)));
        }
        if (maxRounds != null || budget != null) {
            throw new CliException("--max-rounds and --budget belong to --rounds auto: add --rounds auto, or drop them",
                    Main.EXIT_USAGE);
        }
        try {
            return builder.rounds(Integer.parseInt(r));
        } catch (NumberFormatException e) {
            throw new CliException("--rounds must be a number of rounds or auto, got '" + rounds + "'", Main.EXIT_USAGE);
        }
    }
}
