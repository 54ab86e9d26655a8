package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.agent.AgentEngine;
import io.loadlab.agent.AgentSet;
import io.loadlab.agent.HostPort;
import io.loadlab.agent.SubjectHost;
import io.loadlab.engine.Engine;
import io.loadlab.load.Warmup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The spec's parts (what is measured, each run's load, placement, the generators) each refuse their
 * own bad fields with the spec's words; the spec refuses what spans parts; the builder still names
 * every problem at once; and experiment.json and the one-line form are those of the flat spec.
 */
class ExperimentSpecPartsTest {

    private static final AgentSet AGENTS = new AgentSet(List.of(HostPort.parse("h1:7700"), HostPort.parse("h2:7700")),
            Path.of("/s/secret"), Optional.of(List.of(1.0, 2.0)));
    private static final SubjectHost SUBJECT_HOST = new SubjectHost(HostPort.parse("h3:7700"), Path.of("/s/secret"));
    private static final Sweep SWEEP = new Sweep(List.of(50.0, 90.0), List.of(1000.0),
            new Sweep.Given("data/x", Map.of("a|b|c", 2000.0)), Optional.of(Duration.ofMillis(10)));

    private static RunLoad load(int connections, OptionalDouble rate, Optional<Sweep> sweep) {
        return new RunLoad(Duration.ofSeconds(1), new Warmup.Fixed(Duration.ZERO), Duration.ZERO, connections, 0, rate,
                Duration.ZERO, 1, sweep);
    }

    private static String refusal(Executable make) {
        return assertThrows(ExperimentException.class, make).getMessage();
    }

    @Test
    void eachPartRefusesItsOwnFieldsInTheSpecsWords() {
        assertEquals("invalid experiment: subjects: '(' is not a regular expression (Unclosed group); protocols:"
                        + " a regular expression is required",
                refusal(() -> new Selection("(", "json", Optional.empty(), Optional.of(""))));
        assertEquals("invalid experiment: connections: must be at least 1, got 0",
                refusal(() -> load(0, OptionalDouble.empty(), Optional.empty())));
        assertEquals("invalid experiment: rate: a latency sweep sets the rate of each window; drop --rate",
                refusal(() -> load(4, OptionalDouble.of(100), Optional.of(SWEEP))));
        assertEquals("invalid experiment: server-cpus and load-cpus: give both or neither",
                refusal(() -> new Placement(Optional.of("0"), Optional.empty(), Optional.empty(), Optional.empty())));
        assertEquals("invalid experiment: server-cpus: the subjects run on the subject host h3:7700, unpinned;"
                        + " drop --server-cpus and --load-cpus",
                refusal(() -> new Placement(Optional.of("0"), Optional.of("1"), Optional.of(SUBJECT_HOST),
                        Optional.empty())));
        assertEquals("invalid experiment: engines: each engine once, got [oha, oha]",
                refusal(() -> new Generators(List.of(Engine.OHA, Engine.OHA), Optional.empty())));
        assertEquals("invalid experiment: agents: they run the built-in engine; drop --engine [wrk] or drop --agents",
                refusal(() -> new Generators(List.of(Engine.WRK), Optional.of(AGENTS))));
    }

    @Test
    void partsDefaultWhatMayBeLeftOut() {
        assertEquals(Optional.empty(), new RunLoad(Duration.ofSeconds(1), new Warmup.Fixed(Duration.ZERO), Duration.ZERO,
                1, 0, OptionalDouble.empty(), Duration.ZERO, 1, null).sweep());
        assertEquals(Optional.empty(),
                new Placement(Optional.empty(), Optional.empty(), null, Optional.empty()).subjectHost());
    }

    @Test
    void rulesAcrossPartsAreTheSpecs() {
        Generators wrk = new Generators(List.of(Engine.WRK), Optional.empty());
        Selection all = new Selection("java-.*", "json", Optional.empty(), Optional.empty());
        Placement here = new Placement(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        assertEquals("invalid experiment: rate: wrk and h2load run a closed loop here; drop --rate or use --engine"
                        + " builtin or oha",
                refusal(() -> new ExperimentSpec("x", 1, ExperimentSpec.Order.ROTATE, 1, true, all,
                        load(4, OptionalDouble.of(100), Optional.empty()), here, wrk)));
        assertEquals("invalid experiment: agents: a latency sweep runs its load in this JVM; drop --agents or the sweep",
                refusal(() -> new ExperimentSpec("x", 1, ExperimentSpec.Order.ROTATE, 1, true, all,
                        load(4, OptionalDouble.empty(), Optional.of(SWEEP)), here,
                        new Generators(List.of(Engine.BUILTIN), Optional.of(AGENTS)))));
    }

    @Test
    void theBuilderNamesEveryProblemOfEveryPartAndAcrossThem() {
        String m = refusal(() -> ExperimentSpec.builder().name("x y").rounds(0).workloads("[").rate(-1.0)
                .serverCpus("a").loadCpus("1").engines(List.of(Engine.WRK)).build());
        for (String problem : List.of("name: letters, digits, '.', '_' and '-' only, got 'x y'",
                "rounds: must be at least 1, got 0", "workloads: '[' is not a regular expression",
                "rate: must be positive, got -1.0", "server-cpus: a list such as 0 or 0-1 or 0,2, got 'a'",
                // Across parts, though the load is itself invalid: as the flat spec said it.
                "rate: wrk and h2load run a closed loop here")) {
            assertTrue(m.contains(problem), m);
        }
        assertTrue(m.startsWith("invalid experiment: name: "), m);
    }

    @Test
    void theAgentsEngineRunsWhileTheGivenEnginesAreKept() {
        ExperimentSpec s = ExperimentSpec.builder().name("agents").agents(AGENTS).build();
        assertEquals(List.of(Engine.BUILTIN), s.generators().given());
        assertEquals(1, s.generators().engines().size());
        assertTrue(s.generators().engines().get(0) instanceof AgentEngine, s.generators().engines().toString());
    }

    /** Golden: what the flat 24-field spec wrote, byte for byte, before it was split into parts. */
    @Test
    void experimentJsonAndTheOneLineFormAreTheFlatSpecs() {
        ExperimentSpec all = ExperimentSpec.builder().name("all").subjects("java-.*|go-.*").workloads("json")
                .variants("durability=fsync").rounds(4).order(ExperimentSpec.Order.SHUFFLE).seed(9)
                .duration(Duration.ofMillis(1500)).warmup(Warmup.steady(Duration.ofSeconds(20))).rotateWorkloads(false)
                .cooldown(Duration.ZERO).connections(10).threads(2).rate(250.0).paceSlack(Duration.ofMillis(1))
                .serverCpus("0").loadCpus("1-3").readyTimeout(Duration.ofSeconds(30)).protocols("h1|h2c").streams(10)
                .build();
        assertEquals("{\"name\":\"all\",\"subjects\":\"java-.*|go-.*\",\"workloads\":\"json\",\"variants\":"
                + "\"durability=fsync\",\"rounds\":4,\"order\":\"shuffle\",\"seed\":9,\"duration\":\"1.500s\",\"warmup\":"
                + "\"auto\",\"warmup_min\":\"2s\",\"warmup_max\":\"20s\",\"workload_order\":\"fixed\",\"cooldown\":\"0ms\","
                + "\"connections\":10,\"threads\":2,\"rate\":250.0,\"pace_slack_us\":1000.0,\"server_cpus\":\"0\","
                + "\"load_cpus\":\"1-3\",\"ready_timeout\":\"30s\",\"engines\":[\"builtin\"],\"protocols\":\"h1|h2c\","
                + "\"streams\":10}", all.toJson().fields().toString());
        assertEquals("ExperimentSpec[all: subjects 'java-.*|go-.*' [durability=fsync] × workloads 'json', 4 rounds"
                + " (shuffle) of 1.500s after warm-up until steady (2s to 20s), 10 connections, fixed rate 250 rps,"
                + " engine builtin]", all.toString());
        ExperimentSpec sweep = ExperimentSpec.builder().name("sweep").sweep(SWEEP).build();
        assertTrue(sweep.toJson().fields().toString().endsWith("\"engines\":[\"builtin\"],\"protocols\":null,"
                + "\"streams\":1,\"latency_sweep\":{\"percent\":[50.0,90.0],\"rates\":[1000.0],\"capacity\":{\"from\":"
                + "\"data/x\",\"rps\":{\"a|b|c\":2000.0}},\"slo\":\"10ms\"}}"), sweep.toJson().fields().toString());
        assertEquals("ExperimentSpec[sweep: subjects 'java-.*' × workloads 'plaintext|json', 3 rounds (rotate) of 5s"
                + " after warm-up until steady (2s to 15s), 64 connections, closed loop, engine builtin, latency sweep"
                + " 50%, 90% of capacity (from data/x) + 1000/s, SLO 10ms]", sweep.toString());
        ExperimentSpec agents = ExperimentSpec.builder().name("agents").warmup(Duration.ofSeconds(2)).agents(AGENTS)
                .subjectHost(SUBJECT_HOST).build();
        assertEquals("{\"name\":\"agents\",\"subjects\":\"java-.*\",\"workloads\":\"plaintext|json\",\"variants\":null,"
                + "\"rounds\":3,\"order\":\"rotate\",\"seed\":1,\"duration\":\"5s\",\"warmup\":\"2s\",\"workload_order\":"
                + "\"rotate\",\"cooldown\":\"1s\",\"connections\":64,\"threads\":0,\"rate\":null,\"pace_slack_us\":0.0,"
                + "\"server_cpus\":null,\"load_cpus\":null,\"ready_timeout\":null,\"engines\":[\"builtin\"],\"protocols\""
                + ":null,\"streams\":1,\"agents\":{\"addresses\":[\"h1:7700\",\"h2:7700\"],\"secret_file\":\"/s/secret\","
                + "\"weights\":[1.0,2.0]},\"subject_host\":{\"address\":\"h3:7700\",\"secret_file\":\"/s/secret\"}}",
                agents.toJson().fields().toString());
        for (ExperimentSpec s : List.of(all, sweep, agents)) {
            assertEquals(s, ExperimentSpec.fromJson(s.toJson()));
        }
    }
}
