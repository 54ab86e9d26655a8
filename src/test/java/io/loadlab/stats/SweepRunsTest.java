package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class SweepRunsTest {

    /** One subject's sweep: a capacity run, a share of it and an absolute rate, and a run outside the sweep. */
    private static Table runs(String... roles) {
        int n = roles.length;
        double[] rates = new double[n];
        double[] shares = new double[n];
        for (int i = 0; i < n; i++) {
            // NaN: not recorded (a closed loop has no target rate).
            rates[i] = roles[i].equals("rate") ? 1000.0 : roles[i].equals("fraction") ? 5000.0 : Double.NaN;
            shares[i] = roles[i].equals("fraction") ? 0.5 : Double.NaN;
        }
        return Table.create("runs",
                StringColumn.create("subject", java.util.Collections.nCopies(n, "s")),
                StringColumn.create("variant", java.util.Collections.nCopies(n, "")),
                StringColumn.create("workload", java.util.Collections.nCopies(n, "w")),
                StringColumn.create("engine", java.util.Collections.nCopies(n, "builtin")),
                StringColumn.create("sweep_role", roles),
                DoubleColumn.create("capacity_fraction", shares),
                DoubleColumn.create("target_rps", rates));
    }

    @Test
    void aSweepIsItsFixedRateWindowsAndTheRestIsClosedLoop() {
        Table t = runs("capacity", "fraction", "rate", "capacity");
        assertTrue(SweepRuns.present(t));
        assertTrue(SweepRuns.hasRates(t));
        assertEquals(List.of("fraction", "rate"), SweepRuns.windows(t).stringColumn("sweep_role").asList());
        SweepRuns.ClosedLoop closed = SweepRuns.closedLoop(t);
        assertEquals(List.of("capacity", "capacity"), closed.runs().stringColumn("sweep_role").asList());
        // Among all the runs the capacity runs are split from the windows by rate; among these alone not.
        assertEquals("rate=none", closed.variantAmongAll("s", "", "w"));
        assertEquals("other", closed.variantAmongAll("t", "other", "w"), "a group it does not hold keeps its variant");
    }

    @Test
    void withoutFixedRateWindowsThereIsNoSweep() {
        Table capacityOnly = runs("capacity", "");
        assertFalse(SweepRuns.present(capacityOnly));
        assertFalse(SweepRuns.hasRates(capacityOnly));
        assertFalse(SweepRuns.hasRates(runs("fraction")), "shares only: no equal-rate table");
        Table noColumn = capacityOnly.copy().removeColumns("sweep_role");
        assertFalse(SweepRuns.present(noColumn));
        assertEquals(0, SweepRuns.windows(noColumn).rowCount());
        assertEquals(2, SweepRuns.closedLoop(noColumn).runs().rowCount());
    }

    @Test
    void theDefaultObjectiveIsTenMilliseconds() {
        assertEquals(Duration.ofMillis(SweepRuns.DEFAULT_SLO_MS), SweepRuns.DEFAULT_SLO);
        assertEquals(Duration.ofMillis(10), SweepRuns.DEFAULT_SLO);
    }
}
