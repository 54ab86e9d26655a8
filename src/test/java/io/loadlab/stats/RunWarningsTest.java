package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.Table;

/** The warnings from the runs.csv columns of issue 11 (steady, noise_cpu_s, steal_s, missed) and the cold first round. */
class RunWarningsTest {

    /** Steady rounds without any other warning (see WarningsTest). */
    private static final double[] CLEAN = {1000, 1002, 998, 1001, 999, 1000.5};

    private static List<Warning> find(Table runs) {
        return Warnings.find(runs, "rps", WarningOptions.defaults());
    }

    private static List<Warning> of(List<Warning> warnings, String kind) {
        return warnings.stream().filter(w -> w.kind().equals(kind)).toList();
    }

    private static Table clean() {
        return new RunsTable("rps").group("web", "json", CLEAN).table();
    }

    private static BooleanColumn flags(String name, Boolean... values) {
        BooleanColumn c = BooleanColumn.create(name);
        for (Boolean v : values) {
            if (v == null) {
                c.appendMissing();
            } else {
                c.append(v.booleanValue());
            }
        }
        return c;
    }

    private static DoubleColumn numbers(String name, Double... values) {
        DoubleColumn c = DoubleColumn.create(name);
        for (Double v : values) {
            if (v == null) {
                c.appendMissing();
            } else {
                c.append(v.doubleValue());
            }
        }
        return c;
    }

    @Test
    void oldExperimentsWithoutTheColumnsGetNoneOfTheseWarnings() {
        assertEquals(List.of(), find(clean()));
        // Present but empty is "not measured" as well.
        Table empty = clean().addColumns(flags("steady", null, null, null, null, null, null),
                numbers("duration_s", null, 10.0, 10.0, null, 10.0, 10.0),
                numbers("noise_cpu_s", 9.0, null, null, 9.0, null, null),
                numbers("steal_s", 9.0, null, null, null, null, null),
                numbers("target_rps", null, null, null, null, null, null),
                LongColumn.create("missed", 6));
        empty.longColumn("missed").setMissing(0);
        assertEquals(List.of(), find(empty));
    }

    @Test
    void runsThatNeverBecameSteadyAreNamedWithTheirWarmUp() {
        Table runs = clean().addColumns(flags("steady", true, false, true, true, false, null),
                numbers("warmup_s", 1.0, 1.0, 1.0, 1.0, 10.0, 1.0));
        Warning w = of(find(runs), "not_steady").get(0);
        assertEquals(List.of(2, 5), w.rounds());
        assertEquals("web / json: rounds 2, 5 never became steady within the warm-up (round 2: warm-up 1 s; round 5:"
                + " warm-up 10 s), so their figures were measured before the server settled; a longer warm-up gives"
                + " it time", w.message());
    }

    @Test
    void aBusyMachineIsNamedWithTheCpuOthersUsedOrTheHypervisorStole() {
        Table runs = clean().addColumns(numbers("duration_s", 10.0, 10.0, 10.0, 10.0, 10.0, 10.0),
                // 0.05, 0.2, exactly the limit 0.1, 0, 0, 0 CPU-seconds per second
                numbers("noise_cpu_s", 0.5, 2.0, 1.0, 0.0, null, 0.0),
                // 0.05 CPU stolen in round 4, above 0.02
                numbers("steal_s", 0.0, 0.0, 0.0, 0.5, null, 0.2));
        List<Warning> noisy = of(find(runs), "noisy_machine");
        assertEquals(1, noisy.size(), noisy.toString());
        assertEquals(List.of(2, 4), noisy.get(0).rounds());
        assertEquals("web / json: the machine was busy during rounds 2, 4 (round 2: other processes used 0.2 CPU;"
                + " round 4: the hypervisor stole 0.05 CPU, on average over the window; limits 0.1 and 0.02 CPU):"
                + " their figures may be lower and noisier than the server's own", noisy.get(0).message());
        // A looser limit accepts round 2.
        WarningOptions loose = new WarningOptions(0.05, 0.05, 0.01, 3.5, 0.25, 0.02, 0.01);
        assertEquals(List.of(4), of(Warnings.find(runs, "rps", loose), "noisy_machine").get(0).rounds());
    }

    @Test
    void aFixedRateNotReachedGivesTargetAchievedAndMissed() {
        double[] rps = {4990, 4900, 5000, 5000, 4995, 4996};
        RunsTable t = new RunsTable("rps");
        for (int i = 0; i < rps.length; i++) {
            t.row("web", "", "json", i + 1, "ok", rps[i], false, 0, 0);
        }
        LongColumn missed = LongColumn.create("missed", 0, 0, 0, 12, 0, 0);
        missed.setMissing(2);
        Table runs = t.table().addColumns(numbers("target_rps", 5000.0, 5000.0, 5000.0, 5000.0, 5000.0, 5000.0), missed);
        Warning w = of(find(runs), "rate_not_reached").get(0);
        assertEquals(List.of(2, 4), w.rounds(), "round 1 is 0.2% short: within 1%");
        assertEquals("web / json: the target rate was not reached in rounds 2, 4 (round 2: target 5,000/s, achieved"
                + " 4,900/s, 0 requests missed; round 4: target 5,000/s, achieved 5,000/s, 12 requests missed); the"
                + " server or the load generator could not keep up, and the latency of the missed requests is in the"
                + " tail", w.message());
    }

    @Test
    void closedLoopRunsHaveNoRateToReach() {
        Table runs = clean().addColumns(numbers("target_rps", null, null, null, null, null, null),
                LongColumn.create("missed", 5, 5, 5, 5, 5, 5));
        assertEquals(List.of(), of(find(runs), "rate_not_reached"));
    }

    /**
     * Rounds 1..4 of subjects api and web, each process running json then plaintext, run ids in
     * plan order (round 1: web json 1, web plaintext 2, api json 3, api plaintext 4; ...).
     */
    private static Table coldRuns(double webJsonFirst, double webPlainFirst, double apiJsonFirst) {
        RunsTable t = new RunsTable("rps");
        IntColumn runId = IntColumn.create("run_id");
        int id = 1;
        for (int round = 1; round <= 4; round++) {
            boolean first = round == 1;
            for (String subject : List.of("web", "api")) {
                double json = first ? (subject.equals("web") ? webJsonFirst : apiJsonFirst) : 1000 + round;
                t.row(subject, "", "json", round, "ok", json, false, 0, 0);
                runId.append(id++);
                t.row(subject, "", "plaintext", round, "ok", first && subject.equals("web") ? webPlainFirst : 1000 + round,
                        false, 0, 0);
                runId.append(id++);
            }
        }
        Table runs = t.table().addColumns(runId);
        DoubleColumn warmup = DoubleColumn.create("warmup_s", runs.rowCount());
        warmup.set(warmup.isMissing(), 2.0);
        return runs.addColumns(warmup, flags("steady", new Boolean[runs.rowCount()]).set(0, false));
    }

    @Test
    void slowFirstRoundOfTheExperimentsFirstRunSaysTheEngineAndTheServerWereCold() {
        Warning w = of(find(coldRuns(800, 1000, 1000)), "slow_first_round").get(0);
        assertEquals("web", w.subject());
        assertTrue(w.message().endsWith("; cold in that run: the load engine (the experiment's first run) and the"
                + " server (the first workload of its process); its warm-up was 2 s; it never became steady"),
                w.message());
    }

    @Test
    void slowFirstRoundOfALaterWorkloadSaysNeitherWasFresh() {
        Warning w = of(find(coldRuns(1000, 800, 1000)), "slow_first_round").get(0);
        assertEquals("plaintext", w.workload());
        assertTrue(w.message().endsWith("; neither the load engine nor the server was fresh in that run (not the"
                + " experiment's first run, nor the first workload of its process); its warm-up was 2 s"), w.message());
    }

    @Test
    void slowFirstRoundOfAnotherProcessesFirstWorkloadSaysTheServerWasCold() {
        Warning w = of(find(coldRuns(1000, 1000, 800)), "slow_first_round").get(0);
        assertEquals("api", w.subject());
        assertTrue(w.message().endsWith("; cold in that run: the server (the first workload of its process); the load"
                + " engine had run before; its warm-up was 2 s"), w.message());
    }

    @Test
    void slowFirstRoundWithoutRunIdsSaysItIsNotKnown() {
        Table runs = new RunsTable("rps").group("web", "json", 900, 1000, 1001, 999, 1000.5).table();
        Warning w = of(find(runs), "slow_first_round").get(0);
        assertTrue(w.message().endsWith("% off their median 1,000; what was cold in that run is not known (no"
                + " run_id)"), w.message());
    }

    @Test
    void warningsComeInTheDocumentedOrderOfKinds() {
        Table runs = new RunsTable("rps").group("web", "json", 900, 1000, 1001, 999, 1000.5, 1000).table()
                .addColumns(flags("steady", true, false, true, true, true, true),
                        numbers("duration_s", 10.0, 10.0, 10.0, 10.0, 10.0, 10.0),
                        numbers("noise_cpu_s", 5.0, 0.0, 0.0, 0.0, 0.0, 0.0));
        runs.booleanColumn("load_bound").set(2, true);
        List<String> kinds = find(runs).stream().map(Warning::kind).toList();
        assertEquals(List.of("outlier", "slow_first_round", "not_steady", "noisy_machine", "load_bound"), kinds);
    }
}
