package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectManifest;
import io.loadlab.workload.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanTest {

    private static Subject subject(String name, List<String> workloads, Map<String, List<String>> variants,
                                   Optional<String> unavailable) {
        SubjectManifest m = new SubjectManifest(name, "d", "l", Optional.empty(), List.of(), Optional.empty(),
                "true", new SubjectManifest.Readiness("/plaintext", Duration.ofSeconds(1)), workloads, variants,
                Path.of("/tmp", name), Optional.empty());
        return new Subject(m, unavailable);
    }

    private static ExperimentSpec spec(int rounds, ExperimentSpec.Order order) {
        return ExperimentSpec.builder().name("t").rounds(rounds).order(order).subjects(".*").workloads(".*").build();
    }

    private static final List<Workload> PLAIN_JSON = Workload.builtin().stream()
            .filter(w -> w.name().equals("plaintext") || w.name().equals("json")).toList();

    @Test
    void rotationGivesEverySubjectEveryPositionWhenRoundsAreAMultipleOfTheSubjects() {
        List<Subject> subjects = List.of(subject("a", List.of("plaintext"), Map.of(), Optional.empty()),
                subject("b", List.of("plaintext"), Map.of(), Optional.empty()),
                subject("c", List.of("plaintext"), Map.of(), Optional.empty()));
        Plan plan = Plan.of(spec(6, ExperimentSpec.Order.ROTATE), subjects, PLAIN_JSON);
        List<List<String>> orders = new ArrayList<>();
        for (int round = 1; round <= 6; round++) {
            int r = round;
            orders.add(plan.runs().stream().filter(x -> x.round() == r).map(x -> x.instance().subject().name()).toList());
        }
        assertEquals(List.of("a", "b", "c"), orders.get(0));
        assertEquals(List.of("b", "c", "a"), orders.get(1));
        assertEquals(List.of("c", "a", "b"), orders.get(2));
        assertEquals(orders.get(0), orders.get(3));
        for (String s : List.of("a", "b", "c")) {
            Map<Integer, Long> positions = new java.util.TreeMap<>();
            plan.runs().stream().filter(x -> x.instance().subject().name().equals(s))
                    .forEach(x -> positions.merge(x.position(), 1L, Long::sum));
            assertEquals(Map.of(1, 2L, 2, 2L, 3, 2L), positions, s);
        }
    }

    @Test
    void runIdsAreSequentialAndEachInstanceRunsOnlyItsWorkloads() {
        List<Subject> subjects = List.of(subject("a", List.of("plaintext", "json"), Map.of(), Optional.empty()),
                subject("b", List.of("json"), Map.of(), Optional.empty()));
        Plan plan = Plan.of(spec(2, ExperimentSpec.Order.ROTATE), subjects, PLAIN_JSON);
        assertEquals(6, plan.runs().size());
        for (int i = 0; i < 6; i++) {
            assertEquals(i + 1, plan.runs().get(i).runId());
        }
        assertTrue(plan.runs().stream().noneMatch(r -> r.instance().subject().name().equals("b")
                && r.workload().name().equals("plaintext")));
    }

    @Test
    void shuffleIsSeededAndReproducible() {
        List<Subject> subjects = new ArrayList<>();
        for (String n : List.of("a", "b", "c", "d", "e")) {
            subjects.add(subject(n, List.of("plaintext"), Map.of(), Optional.empty()));
        }
        ExperimentSpec s1 = ExperimentSpec.builder().name("t").rounds(4).order(ExperimentSpec.Order.SHUFFLE).seed(7).build();
        ExperimentSpec s2 = ExperimentSpec.builder().name("t").rounds(4).order(ExperimentSpec.Order.SHUFFLE).seed(8).build();
        List<String> a = names(Plan.of(s1, subjects, PLAIN_JSON));
        assertEquals(a, names(Plan.of(s1, subjects, PLAIN_JSON)));
        assertNotEquals(a, names(Plan.of(s2, subjects, PLAIN_JSON)));
        Set<List<String>> rounds = new HashSet<>();
        for (int r = 0; r < 4; r++) {
            rounds.add(a.subList(r * 5, r * 5 + 5));
        }
        assertTrue(rounds.size() > 1, "rounds are shuffled independently");
    }

    private static List<String> names(Plan p) {
        return p.runs().stream().map(r -> r.instance().subject().name()).toList();
    }

    @Test
    void variantsDefaultToTheFirstValueAndAPatternSelectsOthers() {
        List<Subject> subjects = List.of(subject("kv", List.of("plaintext"),
                Map.of("durability", List.of("memory", "fsync")), Optional.empty()));
        Plan def = Plan.of(spec(1, ExperimentSpec.Order.ROTATE), subjects, PLAIN_JSON);
        assertEquals(List.of("durability=memory"), def.instances().stream().map(Plan.Instance::variantLabel).toList());
        ExperimentSpec all = ExperimentSpec.builder().name("t").rounds(1).variants("durability=.*").build();
        assertEquals(List.of("durability=memory", "durability=fsync"),
                Plan.of(all, subjects, PLAIN_JSON).instances().stream().map(Plan.Instance::variantLabel).toList());
    }

    private static List<String> labels(ExperimentSpec spec, List<Subject> subjects) {
        return Plan.of(spec, subjects, PLAIN_JSON).instances().stream()
                .map(i -> i.subject().name() + ":" + i.variantLabel()).toList();
    }

    private static final Map<String, List<String>> GO_VARIANTS = new java.util.LinkedHashMap<>(Map.of(
            "durability", List.of("memory", "fsync")));

    static {
        GO_VARIANTS.put("protocol", List.of("h1", "h1-tls", "h2-tls", "h2c"));
    }

    @Test
    void aPatternNamingOnlyTheProtocolLeavesTheOtherVariantsAtTheirFirstValue() {
        List<Subject> subjects = List.of(subject("go", List.of("plaintext"), GO_VARIANTS, Optional.empty()),
                subject("nginx", List.of("plaintext"), Map.of("protocol", List.of("h1", "h1-tls", "h2-tls")),
                        Optional.empty()));
        ExperimentSpec protocols = ExperimentSpec.builder().name("t").rounds(1).variants("protocol=.*").build();
        assertEquals(List.of("go:durability=memory", "go:durability=memory,protocol=h1-tls",
                "go:durability=memory,protocol=h2-tls", "go:durability=memory,protocol=h2c",
                "nginx:", "nginx:protocol=h1-tls", "nginx:protocol=h2-tls"), labels(protocols, subjects));
        ExperimentSpec h1 = ExperimentSpec.builder().name("t").rounds(1).variants("protocol=h1").build();
        assertEquals(List.of("go:durability=memory", "nginx:"), labels(h1, subjects),
                "a pattern matches protocol=h1, though the label leaves it out");
        ExperimentSpec durabilities = ExperimentSpec.builder().name("t").rounds(1).variants("durability=.*").build();
        assertEquals(List.of("go:durability=memory", "go:durability=fsync"),
                labels(durabilities, subjects));
        ExperimentSpec whole = ExperimentSpec.builder().name("t").rounds(1)
                .variants("durability=fsync,protocol=h2c").build();
        assertEquals(List.of("go:durability=fsync,protocol=h2c"), labels(whole, subjects));
    }

    @Test
    void protocolsChooseByValueAndASubjectWithoutTheVariantServesH1() {
        List<Subject> subjects = List.of(subject("go", List.of("plaintext"), GO_VARIANTS, Optional.empty()),
                subject("plain", List.of("plaintext"), Map.of(), Optional.empty()));
        ExperimentSpec tls = ExperimentSpec.builder().name("t").rounds(1).protocols("h1|h2-tls").build();
        assertEquals(List.of("go:durability=memory", "go:durability=memory,protocol=h2-tls", "plain:"),
                labels(tls, subjects));
        ExperimentSpec h2c = ExperimentSpec.builder().name("t").rounds(1).protocols("h2c").build();
        Plan plan = Plan.of(h2c, subjects, PLAIN_JSON);
        assertEquals(List.of("go:durability=memory,protocol=h2c"), labels(h2c, subjects));
        assertEquals(List.of("plain: serves no protocol matching 'h2c'"), plan.skipped());
        ExperimentSpec wrk = ExperimentSpec.builder().name("t").rounds(1).protocols("h1|h2c")
                .engines(List.of(io.loadlab.engine.Engine.BUILTIN, io.loadlab.engine.Engine.WRK)).build();
        Plan withWrk = Plan.of(wrk, subjects.subList(0, 1), PLAIN_JSON);
        assertEquals(List.of("durability=memory builtin", "durability=memory wrk",
                "durability=memory,protocol=h2c builtin"), withWrk.runs().stream()
                .map(r -> r.instance().variantLabel() + " " + r.engine().label()).toList());
        assertTrue(withWrk.skipped().contains("go [durability=memory,protocol=h2c] with wrk: wrk speaks HTTP/1.1 only,"
                + " not h2c"), withWrk.skipped().toString());
        ExperimentSpec both = ExperimentSpec.builder().name("t").rounds(1).variants("durability=fsync.*")
                .protocols("h2c").build();
        assertEquals(List.of("go:durability=fsync,protocol=h2c"), labels(both, subjects.subList(0, 1)));
    }

    /** {@code run --agents --protocols 'h1|h2c'}: the agents' engine skips h2c, and TLS, with its reason. */
    @Test
    void agentsSkipH2cAndTlsVariantsWithTheReason() {
        List<Subject> go = List.of(subject("go", List.of("plaintext"), GO_VARIANTS, Optional.empty()));
        io.loadlab.agent.AgentSet agents = io.loadlab.agent.AgentSet.parse("127.0.0.1:5701", Path.of("/tmp/secret"));
        ExperimentSpec s = ExperimentSpec.builder().name("t").rounds(1).protocols("h1|h2c").agents(agents).build();
        Plan plan = Plan.of(s, go, PLAIN_JSON);
        assertEquals(List.of("durability=memory agents"), plan.runs().stream()
                .map(r -> r.instance().variantLabel() + " " + r.engine().label()).distinct().toList());
        assertEquals(List.of("go [durability=memory,protocol=h2c] with agents: agents run plain HTTP/1.1 only,"
                + " not h2c"), plan.skipped());
        ExperimentSpec tls = ExperimentSpec.builder().name("t").rounds(1).protocols("h1-tls").agents(agents).build();
        ExperimentException none = assertThrows(ExperimentException.class, () -> Plan.of(tls, go, PLAIN_JSON));
        assertTrue(none.getMessage().contains("with agents: agents run plain HTTP/1.1 only, not HTTP/1.1 over TLS"),
                none.getMessage());
    }

    @Test
    void unavailableSubjectsAreSkippedWithTheirReason() {
        List<Subject> subjects = List.of(subject("a", List.of("plaintext"), Map.of(), Optional.empty()),
                subject("go", List.of("plaintext"), Map.of(), Optional.of("needs `go` on PATH")));
        Plan plan = Plan.of(spec(1, ExperimentSpec.Order.ROTATE), subjects, PLAIN_JSON);
        assertEquals(List.of("go: needs `go` on PATH"), plan.skipped());
        ExperimentException e = assertThrows(ExperimentException.class,
                () -> Plan.of(spec(1, ExperimentSpec.Order.ROTATE), subjects.subList(1, 2), PLAIN_JSON));
        assertTrue(e.getMessage().contains("needs `go` on PATH"), e.getMessage());
    }

    @Test
    void badSpecsNameTheField() {
        ExperimentException e = assertThrows(ExperimentException.class,
                () -> ExperimentSpec.builder().name("x").rounds(0).subjects("(").connections(0).protocols("h2[")
                        .streams(0).build());
        assertTrue(e.getMessage().contains("rounds: must be at least 1"), e.getMessage());
        assertTrue(e.getMessage().contains("subjects: '(' is not a regular expression"), e.getMessage());
        assertTrue(e.getMessage().contains("connections: must be at least 1"), e.getMessage());
        assertTrue(e.getMessage().contains("protocols: 'h2[' is not a regular expression"), e.getMessage());
        assertTrue(e.getMessage().contains("streams: must be at least 1, got 0"), e.getMessage());
    }

    @Test
    void theSpecSurvivesItsJsonForm() {
        ExperimentSpec s = ExperimentSpec.builder().name("x").rounds(4).order(ExperimentSpec.Order.SHUFFLE).seed(9)
                .duration(Duration.ofMillis(1500)).warmup(Duration.ZERO).rate(250.0).variants("durability=fsync")
                .serverCpus("0").loadCpus("1").protocols("h1|h2c").streams(10).build();
        assertEquals(s, ExperimentSpec.fromJson(s.toJson()));
    }
}
