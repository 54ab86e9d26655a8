package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code loadlab compare --format json|markdown}, the summary lines and {@code --fail-if}, on the sample experiment. */
class CompareFormatsTest {

    private static final String SAMPLE = System.getProperty("user.dir") + "/data/sample";

    @Test
    void jsonFollowsTheDocumentedSchema() throws Exception {
        CliRun o = CliRun.of("compare", SAMPLE, "--format", "json", "--baseline", "java-netty");
        assertEquals(0, o.code(), o.err());
        JsonNode root = new ObjectMapper().readTree(o.out());
        assertEquals("loadlab-compare", root.get("schema").asText());
        assertEquals(1, root.get("version").asInt());
        assertEquals("rps", root.get("metric").asText());
        assertEquals("java-netty", root.get("baseline").asText());
        assertEquals(0.01, root.get("noise").asDouble());
        assertEquals(SAMPLE, root.get("experiments").get(0).asText());
        JsonNode groups = root.get("groups");
        assertEquals(9, groups.size(), "3 subjects x 3 workloads");
        List<String> order = new ArrayList<>();
        for (JsonNode g : groups) {
            order.add(g.get("workload").asText() + "/" + g.get("subject").asText());
            assertEquals(5, g.get("n").asInt());
            assertTrue(g.get("mean").isDouble(), g.toString());
            if (g.get("subject").asText().equals("java-netty")) {
                assertEquals("baseline", g.get("verdict").asText());
                assertTrue(g.get("ratio_ci_low").isNull() && g.get("summary").isNull(), "NaN is null: " + g);
            } else {
                // The sample's other two servers are both well below java-netty on every workload.
                assertEquals("slower", g.get("verdict").asText(), g.toString());
                assertEquals("paired", g.get("test").asText());
                double ratio = g.get("ratio").asDouble();
                assertTrue(g.get("ratio_ci_low").asDouble() <= ratio && ratio <= g.get("ratio_ci_high").asDouble());
                assertTrue(g.get("p_test").asDouble() < 0.05, g.toString());
                assertTrue(g.get("summary").asText().startsWith("java-netty [durability=memory] ran "), g.toString());
            }
        }
        assertEquals(List.of("json/java-netty", "json/go-nethttp", "json/node-http", "plaintext/java-netty",
                "plaintext/go-nethttp", "plaintext/node-http", "put-1k/java-netty", "put-1k/go-nethttp",
                "put-1k/node-http"), order, "by workload, the baseline first");
        assertTrue(root.get("warnings").isArray() && root.get("warnings").size() > 0);
        assertTrue(root.get("warnings").get(0).has("kind") && root.get("warnings").get(0).has("message"));
    }

    @Test
    void markdownIsATableToPasteIntoAPullRequest() {
        CliRun o = CliRun.of("compare", SAMPLE, "--format", "markdown");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertEquals("### `rps` against `go-nethttp`", lines.get(0));
        int header = lines.indexOf("| workload | subject | n | mean | 95% CI | ratio | ratio 95% CI | test | p | verdict |");
        assertTrue(header > 0, o.out());
        assertEquals("|---|---|--:|--:|--:|--:|---|---|--:|---|", lines.get(header + 1));
        for (int i = header + 2; i < header + 11; i++) {
            assertEquals(12, lines.get(i).split("\\|", -1).length, "10 cells between 11 pipes: " + lines.get(i));
        }
        assertTrue(lines.contains("| json | java-netty [durability=memory] | 5 | 184,725 | ± 12,086 | 1.84 | [1.82, 1.87]"
                + " | paired | < 0.001 | faster |"), o.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("- java-netty [durability=memory] ran 1.84× [1.82, 1.87]"
                + " faster than go-nethttp [durability=memory] on json (paired, n = 5)")), o.out());
    }

    @Test
    void textHasASummaryLinePerGroupWithTheFasterFirst() {
        CliRun o = CliRun.of("compare", SAMPLE);
        assertEquals(0, o.code(), o.err());
        List<String> summary = o.out().lines().filter(l -> l.contains(" ran ") && l.contains("× [")).toList();
        assertEquals(List.of(
                "java-netty [durability=memory] ran 1.84× [1.82, 1.87] faster than go-nethttp [durability=memory] on json (paired, n = 5)",
                "go-nethttp [durability=memory] ran 1.26× [1.23, 1.30] faster than node-http [durability=memory] on json (paired, n = 5)",
                "java-netty [durability=memory] ran 1.78× [1.74, 1.82] faster than go-nethttp [durability=memory] on plaintext (paired, n = 5)",
                "go-nethttp [durability=memory] ran 1.24× [1.19, 1.28] faster than node-http [durability=memory] on plaintext (paired, n = 5)",
                "java-netty [durability=memory] ran 1.84× [1.79, 1.89] faster than go-nethttp [durability=memory] on put-1k (paired, n = 5)",
                "go-nethttp [durability=memory] ran 1.37× [1.34, 1.42] faster than node-http [durability=memory] on put-1k (paired, n = 5)"),
                summary);
    }

    @Test
    void failIfExitsOneOnlyWhenAVerdictMeetsItBeyondTheThreshold() {
        // node-http is slower than go-nethttp on every workload, by 19% to 27%.
        CliRun slower = CliRun.of("compare", SAMPLE, "--format", "json", "--fail-if", "slower");
        assertEquals(1, slower.code(), slower.err());
        assertEquals(3, slower.err().lines().filter(l -> l.startsWith("loadlab: --fail-if slower: go-nethttp")).count(),
                slower.err());
        CliRun big = CliRun.of("compare", SAMPLE, "--fail-if", "slower", "--threshold", "25%");
        assertEquals(1, big.code(), big.err());
        assertTrue(big.err().contains("on put-1k") && !big.err().contains("on json"), big.err());
        assertEquals(0, CliRun.of("compare", SAMPLE, "--fail-if", "slower", "--threshold", "0.3").code());
        CliRun fromFastest = CliRun.of("compare", SAMPLE, "--baseline", "java-netty", "--fail-if", "faster");
        assertEquals(0, fromFastest.code(), fromFastest.err());
        assertEquals("", fromFastest.err());
        assertEquals(1, CliRun.of("compare", SAMPLE, "--baseline", "java-netty", "--fail-if", "different").code());
    }

    @Test
    void badFailIfOrFormatGivesOneLineAndExitTwo() {
        CliRun unknown = CliRun.of("compare", SAMPLE, "--fail-if", "worse");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("loadlab: --fail-if must be slower, faster or different"), unknown.err());
        CliRun threshold = CliRun.of("compare", SAMPLE, "--fail-if", "slower", "--threshold", "5");
        assertEquals(2, threshold.code());
        assertTrue(threshold.err().contains("write a percentage such as 5%"), threshold.err());
        CliRun alone = CliRun.of("compare", SAMPLE, "--threshold", "5%");
        assertEquals(2, alone.code());
        CliRun neutral = CliRun.of("compare", SAMPLE, "--metric", "cpu_s", "--fail-if", "faster");
        assertEquals(2, neutral.code());
        assertTrue(neutral.err().contains("use --fail-if different"), neutral.err());
        CliRun engines = CliRun.of("compare", SAMPLE, "--engines", "--format", "json");
        assertEquals(2, engines.code());
        assertTrue(engines.err().contains("not with --engines"), engines.err());
        assertEquals(2, CliRun.of("compare", SAMPLE, "--format", "yaml").code());
    }
}
