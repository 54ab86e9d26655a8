package io.loadlab.cli;

import io.loadlab.stats.ComparisonRow;
import io.loadlab.stats.Direction;
import io.loadlab.stats.Sentences;
import io.loadlab.stats.Verdict;
import java.util.List;
import java.util.Locale;

/**
 * {@code loadlab compare --fail-if slower|faster|different [--threshold P]}: the verdicts against the
 * baseline that make the command exit 1, so that a CI job can gate on a comparison (as k6's
 * thresholds or criterion's baselines do). The verdict rule is the comparison's own; the threshold
 * only narrows it: the ratio must also lie at least that far from 1.
 *
 * @param condition which verdicts count
 * @param threshold how far from 1 the ratio must be as well, a fraction (0.05 = 5%), 0 or more
 */
record FailIf(Condition condition, double threshold) {

    /** The verdicts that fail. */
    enum Condition {
        /** A group called slower than the baseline. */
        SLOWER,
        /** A group called faster than the baseline. */
        FASTER,
        /** Any called difference: faster, slower, higher or lower. */
        DIFFERENT;

        boolean meets(Verdict v) {
            return switch (this) {
                case SLOWER -> v == Verdict.SLOWER;
                case FASTER -> v == Verdict.FASTER;
                case DIFFERENT -> v.isDifference();
            };
        }
    }

    FailIf {
        if (!(threshold >= 0 && Double.isFinite(threshold))) {
            throw new CliException("--threshold must be 0 or more, such as 5% or 0.05, got " + threshold,
                    Main.EXIT_USAGE);
        }
    }

    /**
     * The gate of {@code --fail-if} and {@code --threshold} as given.
     *
     * @param condition {@code slower}, {@code faster} or {@code different}
     * @param threshold {@code 5%}, {@code 0.05}, or null for 0
     * @param metric    the metric compared: slower and faster need one with a better direction
     */
    static FailIf parse(String condition, String threshold, String metric) {
        Condition c;
        try {
            c = Condition.valueOf(condition.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CliException("--fail-if must be slower, faster or different, got '" + condition + "'",
                    Main.EXIT_USAGE);
        }
        if (c != Condition.DIFFERENT && Direction.of(metric) == Direction.NEUTRAL) {
            throw new CliException("--fail-if " + condition + " needs a metric that is better one way (rps, rps_per_*,"
                    + " lat_*, svc_*); " + metric + " is only higher or lower: use --fail-if different", Main.EXIT_USAGE);
        }
        return new FailIf(c, threshold == null ? 0 : fraction(threshold));
    }

    /** {@code 5%} or {@code 0.05} as 0.05. */
    static double fraction(String given) {
        String s = given.strip();
        boolean percent = s.endsWith("%");
        try {
            double v = Double.parseDouble(percent ? s.substring(0, s.length() - 1).strip() : s);
            if (!percent && v >= 1) {
                throw new CliException("--threshold " + given + " is ambiguous: write a percentage such as 5% or a"
                        + " fraction below 1 such as 0.05", Main.EXIT_USAGE);
            }
            return percent ? v / 100 : v;
        } catch (NumberFormatException e) {
            throw new CliException("--threshold must be a percentage such as 5% or a fraction such as 0.05, got '"
                    + given + "'", Main.EXIT_USAGE);
        }
    }

    /** The rows, other than the baselines', whose verdict meets the condition with a ratio at least {@link #threshold} from 1. */
    List<ComparisonRow> met(List<ComparisonRow> rows) {
        return rows.stream().filter(r -> condition.meets(r.verdict()) && Math.abs(r.ratio() - 1) >= threshold)
                .toList();
    }

    /** 1 when a verdict meets the condition, each such group's sentence on {@code err}; else 0. */
    int exitCode(List<ComparisonRow> rows, java.io.PrintWriter err) {
        List<ComparisonRow> met = met(rows);
        for (ComparisonRow r : met) {
            err.printf(Locale.ROOT, "loadlab: --fail-if %s: %s%n", this, Sentences.of(r, Sentences.baselineRow(rows, r)));
        }
        err.flush();
        return met.isEmpty() ? 0 : Main.EXIT_FAILED;
    }

    /** The condition as given on the command line, with the threshold: {@code slower by 5% or more}. */
    @Override
    public String toString() {
        return condition.name().toLowerCase(Locale.ROOT)
                + (threshold > 0 ? " by " + io.loadlab.format.Units.exactPercent(threshold) + " or more" : "");
    }
}
