package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.Results;
import io.loadlab.data.RunHistograms;
import io.loadlab.stats.Knee;
import io.loadlab.stats.Knees;
import io.loadlab.stats.LatencyCurves;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * A latency sweep against a stand-in server of known service time and capacity
 * ({@code src/test/resources/sweep/paced_server.py}: one worker, 10 ms per request, so 100
 * requests/s): the capacity runs measure 100/s, each share's rate is that share of its round's
 * capacity, below capacity the p50 is the service time, past it the corrected latency grows with
 * the time the window has run and the missed requests grow with the overload, and the knee at a
 * 100 ms p99 lies within 10% of the true capacity (100/s). The assertions are on latencies relative to the server's
 * service time, which is part of the set-up, never on how fast anything ran.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
class SweepRunTest {

    private static final Path SERVER = FaultySubjects.REPO.resolve("src/test/resources/sweep/paced_server.py");
    /**
     * The stand-in's service time, µs, and so its capacity, requests/s. 10 ms rather than 2: the
     * Python stand-in must keep its pace on a busy shared machine (at 2 ms it served 367/s while
     * three builds ran beside it).
     */
    private static final double SERVICE_US = 10_000;
    private static final double CAPACITY = 1e6 / SERVICE_US;
    /** 95% brings a point close below the capacity, so that the knee found lies within 10% of it. */
    private static final List<Double> PERCENTS = List.of(50.0, 90.0, 95.0, 110.0, 130.0);
    private static final double WINDOW_S = 3;

    @TempDir
    static Path tmp;
    private static Path home;
    private static Path dir;

    @BeforeAll
    static void sweepTheStandIn() throws IOException {
        home = tmp.resolve("home");
        Path subject = Files.createDirectories(home.resolve("subjects/paced"));
        Files.writeString(subject.resolve("subject.yaml"), "name: paced\n"
                + "description: one worker, 10 ms per request (the latency-sweep tests' stand-in)\n"
                + "language: Python\n"
                + "requires: [python3]\n"
                + "start: " + FaultySubjects.PYTHON + " " + SERVER + " --port {port} --service-ms " + SERVICE_US / 1000
                + " --pids " + home.resolve("pids") + "\n"
                + "ready: {path: /plaintext, timeout: 30s}\n"
                + "workloads: [plaintext]\n");
        dir = tmp.resolve("sweep");
        Experiment exp = Experiment.create(home, spec("sweep").build(), dir, List.of("test"), new Runner.Progress() { });
        assertEquals("completed", exp.execute().status());
    }

    private static ExperimentSpec.Builder spec(String name) {
        return ExperimentSpec.builder().name(name).subjects("paced").workloads("plaintext").rounds(2)
                .duration(Duration.ofMillis((long) (WINDOW_S * 1000))).cooldown(Duration.ofMillis(200)).connections(8)
                // The Python stand-in has no JIT to wait for: a fixed second, not a steady-state warm-up.
                .warmup(new io.loadlab.load.Warmup.Fixed(Duration.ofSeconds(1)))
                .sweep(new Sweep(PERCENTS, List.of(300.0), new Sweep.Measured(), java.util.Optional.empty()));
    }

    @AfterAll
    static void nothingLeftRunning() throws IOException {
        List<Long> pids = new ArrayList<>();
        for (String line : Files.readAllLines(home.resolve("pids"))) {
            pids.add(Long.parseLong(line.split(" ")[1]));
        }
        List<Long> alive = FaultySubjects.alive(pids);
        // Stop by pid whatever the harness left, then fail: the harness must stop its subjects.
        alive.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
        assertTrue(alive.isEmpty(), "stand-in servers left running: " + alive);
    }

    /** The mean of the rounds' capacity runs, requests/s. */
    private static double measuredCapacity() throws IOException {
        return ExperimentRunTest.rows(dir).stream().filter(r -> r.get("sweep_role").equals("capacity"))
                .mapToDouble(r -> Double.parseDouble(r.get("rps"))).average().orElseThrow();
    }

    @Test
    void capacityRunsMeasureTheStandInsCapacityAndSharesAreTakenOfTheirRound() throws IOException {
        List<Map<String, String>> rows = ExperimentRunTest.rows(dir);
        assertEquals(2 * (1 + PERCENTS.size() + 1), rows.size());
        for (Map<String, String> r : rows) {
            assertEquals("ok", r.get("status"), r.get("run_id") + ": " + r.get("error"));
            Map<String, String> capacity = rows.stream().filter(c -> c.get("round").equals(r.get("round"))
                    && c.get("sweep_role").equals("capacity")).findFirst().orElseThrow();
            double cap = Double.parseDouble(capacity.get("rps"));
            switch (r.get("sweep_role")) {
                case "capacity" -> {
                    assertEquals("", r.get("target_rps"), "a closed loop");
                    assertEquals(r.get("rps"), r.get("capacity_rps"));
                    // One request per 10 ms at best; a busy machine adds Python's own time per request.
                    assertTrue(cap <= 1.05 * CAPACITY && cap >= 0.5 * CAPACITY, "capacity " + cap + "/s");
                }
                case "fraction" -> {
                    double f = Double.parseDouble(r.get("capacity_fraction"));
                    assertTrue(PERCENTS.stream().anyMatch(pc -> Math.abs(pc - f * 100) < 1e-9), r.toString());
                    assertEquals(f * cap, Double.parseDouble(r.get("target_rps")), 1e-3, "its round's capacity");
                    assertEquals(cap, Double.parseDouble(r.get("capacity_rps")), 1e-6);
                }
                case "rate" -> {
                    assertEquals("300", r.get("target_rps"));
                    assertEquals(300 / cap, Double.parseDouble(r.get("capacity_fraction")), 1e-6);
                }
                default -> throw new AssertionError("sweep_role " + r.get("sweep_role"));
            }
        }
    }

    @Test
    void belowCapacityTheMedianIsTheServiceTimeAndPastItLatencyAndMissedGrow() throws IOException {
        Results results = Results.load(dir);
        Table curves = LatencyCurves.curves(results.runs(), RunHistograms.load(results.runs(), results.experiments()), 1);
        Map<String, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < curves.rowCount(); i++) {
            at.put(curves.stringColumn("point").get(i), i);
        }
        int half = at.get("50%");
        double p50 = curves.doubleColumn("lat_p50_us").get(half);
        assertTrue(p50 >= SERVICE_US && p50 < 2 * SERVICE_US, "p50 at half the capacity: " + p50 + " µs");
        assertTrue(p50 - curves.doubleColumn("svc_p50_us").get(half) < 0.5 * SERVICE_US,
                "below capacity nothing waits for a connection: corrected and service time agree");
        assertEquals(0, curves.doubleColumn("missed").get(half), "nothing missed at half the capacity");

        int over = at.get("130%");
        double capacity = measuredCapacity();
        double overloadRate = 1.3 * capacity;
        assertTrue(curves.doubleColumn("missed").get(over) > curves.doubleColumn("missed").get(at.get("110%")));
        // The backlog grows by (rate - capacity) each second, and by then some was left from the warm-up.
        assertTrue(curves.doubleColumn("missed").get(over) >= 0.5 * (overloadRate - capacity) * WINDOW_S,
                "missed at 130%: " + curves.doubleColumn("missed").get(over));
        assertTrue(curves.doubleColumn("lat_p50_us").get(over) > 10 * SERVICE_US);
    }

    @Test
    void pastTheKneeEachSecondOfTheWindowWaitsLongerThanTheOne() {
        // Checked on the absolute 300/s point: three times what the stand-in can serve at its best, so
        // it is past the knee however fast the machine was. A share of the measured capacity is not:
        // a capacity run in a busy second underestimates it, and 130% of that can be served when
        // the machine is quiet again.
        Results results = Results.load(dir);
        Table runs = results.runs();
        Table intervals = results.intervals();
        int checked = 0;
        for (int i = 0; i < runs.rowCount(); i++) {
            if (runs.stringColumn("sweep_role").get(i).equals("rate")) {
                int id = runs.intColumn("run_id").get(i);
                Table mine = intervals.where(intervals.intColumn("run_id").isEqualTo(id)).sortOn("t_s");
                double t0 = mine.doubleColumn("t_s").get(0);
                double t1 = mine.doubleColumn("t_s").get(mine.rowCount() - 1);
                long first = mine.longColumn("lat_p50_us").get(0);
                long last = mine.longColumn("lat_p50_us").get(mine.rowCount() - 1);
                // The backlog only grows: every second of the window waits longer than the first, and by far
                // more than a service time. How fast it grows depends on how the busy machine paced the
                // stand-in (from 0.07 to 0.67 s a second here), so only the direction is asserted.
                assertTrue(t1 > t0 && last > first && first > 10 * SERVICE_US,
                        "run " + id + ": p50 " + first + " µs, then " + last + " µs");
                checked++;
            }
        }
        assertEquals(2, checked, "one overloaded window per round");
    }

    @Test
    void theKneeAtA100msP99IsWithinTenPercentOfTheTrueCapacity() throws IOException {
        Results results = Results.load(dir);
        // 10 service times: above what a busy 2-core machine adds to the p99 of a few hundred requests
        // below capacity (at 50 ms one stalled second made the lowest point's p99 cross it), below the
        // backlog past it (at 110% a request waits 9% longer for each second the load has run: after a
        // warm-up and a 3 s window, 300 ms and more).
        List<Knee> knees = Knees.find(results.runs(), RunHistograms.load(results.runs(), results.experiments()),
                100_000, 1);
        assertEquals(1, knees.size());
        Knee k = knees.get(0);
        assertEquals(Knee.Bound.WITHIN, k.bound(), k.toString());
        // Against the stand-in's true capacity, as the issue asks. On a machine busy from outside its pace
        // falls below the nominal 100/s, the shares (taken of the measured capacity) with it, and this
        // can fail: the message gives the measured capacity to tell the two apart.
        assertEquals(CAPACITY, k.rps(), 0.10 * CAPACITY, k + " against a true capacity of " + CAPACITY
                + "/s (the runs measured " + measuredCapacity() + "/s)");
        assertTrue(k.ciLow() <= k.rps() && k.rps() <= k.ciHigh(), k.toString());
        assertEquals(2, k.rounds());
    }
}
