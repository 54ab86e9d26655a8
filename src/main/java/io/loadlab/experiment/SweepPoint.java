package io.loadlab.experiment;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import java.util.OptionalDouble;

/**
 * What one run of a latency sweep measures: the subject's closed-loop capacity, a fixed rate at a
 * fraction of that capacity, or a fixed absolute rate. The plan holds points, never rates: a
 * fraction's rate is known only once the round's capacity run has been measured, and the plan must
 * stay a pure function of the spec so that {@code --resume} gets the same run ids.
 */
public sealed interface SweepPoint {

    /** The closed-loop run that measures the capacity the fractions of its round are taken of. */
    record Capacity() implements SweepPoint {
        @Override
        public String role() {
            return RunColumn.SweepRole.CAPACITY.value();
        }

        @Override
        public String label() {
            return "capacity";
        }

        @Override
        public OptionalDouble rate(double capacity) {
            return OptionalDouble.empty();
        }
    }

    /**
     * A fixed rate at a share of the capacity.
     *
     * @param percent the share in percent of the capacity (50 = half), greater than 0
     */
    record Fraction(double percent) implements SweepPoint {
        public Fraction {
            if (!(percent > 0) || Double.isInfinite(percent)) {
                throw new ExperimentException("latency sweep: a share of capacity must be a positive percentage, got "
                        + percent);
            }
        }

        /** The share as a fraction: 0.5 for 50%. */
        public double fraction() {
            return percent / 100;
        }

        @Override
        public String role() {
            return RunColumn.SweepRole.FRACTION.value();
        }

        @Override
        public String label() {
            return RunRow.num(percent) + "%";
        }

        @Override
        public OptionalDouble rate(double capacity) {
            return OptionalDouble.of(fraction() * capacity);
        }

        @Override
        public boolean needsCapacity() {
            return true;
        }
    }

    /**
     * A fixed absolute rate, the same for every subject, so that servers meet at equal load.
     *
     * @param rps requests per second, greater than 0
     */
    record Rate(double rps) implements SweepPoint {
        public Rate {
            if (!(rps > 0) || Double.isInfinite(rps)) {
                throw new ExperimentException("latency sweep: a rate must be a positive number of requests/s, got " + rps);
            }
        }

        @Override
        public String role() {
            return RunColumn.SweepRole.RATE.value();
        }

        @Override
        public String label() {
            return RunRow.num(rps) + "/s";
        }

        @Override
        public OptionalDouble rate(double capacity) {
            return OptionalDouble.of(rps);
        }
    }

    /** The {@code sweep_role} column's value: {@code capacity}, {@code fraction} or {@code rate}. */
    String role();

    /** How plans and tables name the point: {@code capacity}, {@code 50%}, {@code 1000/s}. */
    String label();

    /**
     * The fixed rate of the point's window in requests/s; empty for the closed-loop capacity run.
     *
     * @param capacity the capacity it is measured against, requests/s; NaN when not known, which
     *                 only a point that {@link #needsCapacity()} cannot do without
     */
    OptionalDouble rate(double capacity);

    /** Whether the point has no rate without a capacity (a share of it). */
    default boolean needsCapacity() {
        return false;
    }
}
