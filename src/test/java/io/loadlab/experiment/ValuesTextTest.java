package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadlab.load.LoadSpec;
import io.loadlab.subject.Subjects;
import io.loadlab.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The values people hold in JShell and notebooks print one line that says what they hold. */
class ValuesTextTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));

    private static final ExperimentSpec SPEC = ExperimentSpec.builder().name("quick").subjects("java-netty|java-httpserver")
            .workloads("plaintext|json").rounds(3).duration(Duration.ofSeconds(1)).warmup(Duration.ofSeconds(1))
            .cooldown(Duration.ZERO).rate(12345.6).build();

    @Test
    void aSpecSaysWhatRunsAndHow() {
        assertEquals("ExperimentSpec[quick: subjects 'java-netty|java-httpserver' × workloads 'plaintext|json',"
                + " 3 rounds (rotate) of 1s after warm-up 1s, 64 connections, fixed rate 12,346 rps, engine builtin]",
                SPEC.toString());
        assertEquals("LoadSpec[GET http://127.0.0.1:8080/json: closed loop, 64 connections, 2 threads, 10s or 1,000"
                + " requests]", LoadSpec.builder().url("http://127.0.0.1:8080/json").threads(2).duration(Duration.ofSeconds(10))
                .requests(1000).warmup(Duration.ZERO).build().toString());
    }

    @Test
    void aPlanCountsItsRunsInsteadOfListingEveryManifest() {
        List<Workload> workloads = Workload.builtin().stream().filter(w -> w.name().matches("plaintext|json")).toList();
        Plan plan = Plan.of(SPEC, Subjects.load(HOME.resolve("subjects"), Workload.builtinNames()).matching(SPEC.selection().subjects()),
                workloads);
        assertEquals("Plan[12 runs: 3 rounds × 2 subject instances (java-httpserver [durability=memory], java-netty"
                + " [durability=memory]), 2 workloads, 1 engine]", plan.toString());
        Plan.Run first = plan.runs().get(0);
        assertEquals("Run[1: round 1, position 1, java-httpserver [durability=memory], " + first.workload().name()
                + ", builtin]", first.toString());
        assertEquals("Instance[java-httpserver [durability=memory]: plaintext, json]", plan.instances().get(0).toString());
    }
}
