package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The must-show on experiments made here, not written by a test: the committed
 * {@code data/reconcile-cold} ({@code --warmup 0s}) against {@code data/reconcile-steady}
 * ({@code --warmup auto}), the same three subjects otherwise run alike (data/README.md). java-netty
 * goes from last to first, so the comparison must call its pairs a disagreement with a ratio of
 * ratios whose CI excludes 1, name the warm-up as what differs and leave the settings that agree
 * (connections, CPUs, engine) unnamed, and find node-http / go-nethttp within noise. The figures
 * are the README's.
 */
class CommittedReconcileTest {

    private static final String COLD = System.getProperty("user.dir") + "/data/reconcile-cold";
    private static final String STEADY = System.getProperty("user.dir") + "/data/reconcile-steady";
    private static final String NETTY = "java-netty [durability=memory]";
    private static final String GO = "go-nethttp [durability=memory]";
    private static final String NODE = "node-http [durability=memory]";

    @Test
    void theSwappedPairsDisagreeWithACiThatExcludesOneAndTheWarmUpIsNamed() {
        CliRun o = CliRun.of("compare", COLD, STEADY, "--format", "csv");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertEquals(1 + 3, lines.size(), "3 pairs of 3 subjects on json: " + o.out());

        String[] nettyGo = row(lines, "json," + NETTY + "," + GO + ",");
        assertEquals(0.3627, Double.parseDouble(nettyGo[3]), 1e-4, "java-netty / go-nethttp cold");
        assertEquals(1.9341, Double.parseDouble(nettyGo[4]), 1e-4, "java-netty / go-nethttp steady");
        assertEquals(0.1875, Double.parseDouble(nettyGo[5]), 1e-4, "their ratio of ratios");
        assertTrue(Double.parseDouble(nettyGo[7]) < 0.5, "the CI's upper end lies far below 1: " + nettyGo[7]);
        assertEquals("false", nettyGo[8]);
        assertEquals("disagree", nettyGo[9]);

        String[] nodeNetty = row(lines, "json," + NODE + "," + NETTY + ",");
        assertEquals(4.5826, Double.parseDouble(nodeNetty[5]), 1e-4);
        assertTrue(Double.parseDouble(nodeNetty[6]) > 2, "the CI's lower end lies far above 1: " + nodeNetty[6]);
        assertEquals("false", nodeNetty[8]);

        String[] nodeGo = row(lines, "json," + NODE + "," + GO + ",");
        assertEquals("true", nodeGo[8], "node-http / go-nethttp kept its ratio within the noise");
        assertEquals("within noise", nodeGo[9]);

        String facts = lines.stream().filter(l -> l.startsWith("json," + NETTY + "," + GO + ",")).findFirst()
                .orElseThrow();
        for (String named : List.of("warmup: 0ms in A, auto in B", "warm-up (median): " + NETTY + " none (0 s) in A",
                "steady runs: none of 3 in A, 2 of 3 in B", "load-bound runs: " + NETTY + " none of 3 in A, 2 of 3 in B")) {
            assertTrue(facts.contains(named), "names '" + named + "': " + facts);
        }
        for (String same : List.of("connections:", "server CPUs:", "engine:", "duration:", "version of ")) {
            assertFalse(facts.contains(same), "a setting that agrees is not named (" + same + "): " + facts);
        }
    }

    @Test
    void theTextShowsBothOrdersTheSwapsAndTheDifferingSettings() {
        CliRun o = CliRun.of("compare", COLD, STEADY);
        assertEquals(0, o.code(), o.err());
        String out = o.out();
        assertTrue(out.contains(GO + " > " + NODE + " > " + NETTY), "the cold order: " + out);
        assertTrue(out.contains(NETTY + " > " + GO + " > " + NODE), "the steady order: " + out);
        assertTrue(out.contains(NETTY + " / " + GO + ", " + NODE + " / " + NETTY), "the swapped pairs: " + out);
        List<String> lines = out.lines().toList();
        assertTrue(line(lines, "warmup ").matches("warmup\\s+0ms\\s+auto\\s+yes"), line(lines, "warmup "));
        assertTrue(line(lines, "runs: warm-up (median)").endsWith("yes"), line(lines, "runs: warm-up (median)"));
        assertTrue(line(lines, "runs: connections").matches("runs: connections\\s+64\\s+64"),
                "the same connections, not marked: " + line(lines, "runs: connections"));
        assertTrue(line(lines, "runs: server CPUs").matches("runs: server CPUs\\s+1 \\(0\\)\\s+1 \\(0\\)"),
                line(lines, "runs: server CPUs"));
        assertTrue(out.contains("  json, " + NETTY + " / " + GO + ": 0.363 in A, 1.93 in B (ratio of ratios 0.188 ["),
                out);
    }

    private static String[] row(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().map(l -> l.split(","))
                .orElseThrow(() -> new AssertionError("no row " + prefix + " in\n" + String.join("\n", lines)));
    }

    private static String line(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in\n" + String.join("\n", lines)))
                .stripTrailing();
    }
}
