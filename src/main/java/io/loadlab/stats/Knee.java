package io.loadlab.stats;

import io.loadlab.data.Group;
import io.loadlab.format.Units;

/**
 * The knee of one latency–throughput curve: the highest achieved throughput at which the p99
 * latency stays under a service-level objective, interpolated between the last point under it and
 * the first over it (on the logarithm of the p99, which rises steeply at the knee), with a 95%
 * interval from a bootstrap over rounds.
 *
 * @param subject  the subject
 * @param variant  its variant label, "" when none
 * @param workload the workload
 * @param sloUs    the objective, p99 in µs
 * @param rps      the knee in requests/s; with {@code bound} {@link Bound#ABOVE} the highest point's
 *                 throughput (the knee is beyond it), with {@link Bound#BELOW} the lowest's
 * @param ciLow    lower end of the 95% round-bootstrap interval (censored draws count at their
 *                 bound); NaN with fewer than 2 rounds
 * @param ciHigh   upper end
 * @param rounds   the rounds the curve has
 * @param bound    whether the knee lies between two points or beyond the sweep's range
 */
public record Knee(String subject, String variant, String workload, double sloUs, double rps, double ciLow,
                   double ciHigh, int rounds, Bound bound) {

    /** Where the knee lies relative to the points measured. */
    public enum Bound {
        /** Between two points: interpolated. */
        WITHIN(""),
        /** The p99 was under the objective at every point: the knee is higher than the sweep went. */
        ABOVE("above"),
        /** The p99 was over the objective already at the lowest point: the knee is lower. */
        BELOW("below");

        private final String label;

        Bound(String label) {
            this.label = label;
        }

        /** {@code above}, {@code below}, or "" for a knee between points. */
        public String label() {
            return label;
        }
    }

    public Knee {
        if (subject == null || variant == null || workload == null || bound == null) {
            throw new StatsException("knee: subject, variant, workload and bound must not be null");
        }
    }

    /** The knee as people read it: {@code 4,812 rps}, {@code > 20,000 rps} or {@code < 1,000 rps}. */
    public String shown() {
        String v = Units.integer(rps) + " rps";
        return switch (bound) {
            case WITHIN -> v;
            case ABOVE -> "> " + v;
            case BELOW -> "< " + v;
        };
    }

    /** {@code Knee[go-nethttp / plaintext at p99 < 5.00ms: 4,812 rps [4,650, 4,901], 3 rounds]}. */
    @Override
    public String toString() {
        String name = Group.subjectLabel(subject, variant);
        return "Knee[" + name + " / " + workload + " at p99 < " + Units.latency(sloUs) + ": " + shown()
                + (Double.isNaN(ciLow) ? "" : " [" + Units.integer(ciLow) + ", " + Units.integer(ciHigh) + "]")
                + ", " + rounds + " round" + (rounds == 1 ? "" : "s") + "]";
    }
}
