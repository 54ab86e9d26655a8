package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadlab compare A B}: two experiments made under deliberately different settings (16
 * against 256 connections, one server CPU against two) where one pair of subjects swaps and
 * another keeps its ratio.
 */
class ReconcileCommandTest {

    @TempDir
    Path tmp;

    private Path[] twoExperiments() throws IOException {
        // java-netty is 1.5x go-nethttp at 16 connections and 0.72x at 256; node-http stays 0.5x go-nethttp.
        Path a = new TinyExperiment("c16", 16, "0").subject("go-nethttp", 20000, 20400, 19800, 20200)
                .subject("java-netty", 30000, 30900, 29600, 30100).subject("node-http", 10000, 10150, 9950, 10050)
                .write(tmp);
        Path b = new TinyExperiment("c256", 256, "0-1").subject("go-nethttp", 25000, 25300, 24800, 25100)
                .subject("java-netty", 18000, 18300, 17800, 18100).subject("node-http", 12480, 12700, 12350, 12600)
                .write(tmp);
        return new Path[] {a, b};
    }

    @Test
    void csvHasTheDocumentedColumnsAndCallsOnlyTheSwappedPairADisagreement() throws IOException {
        Path[] e = twoExperiments();
        CliRun o = CliRun.of("compare", e[0].toString(), e[1].toString(), "--format", "csv");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.get(0).startsWith("workload,subject,baseline,ratio_a,ratio_b,ratio_of_ratios,ci_low,ci_high,"
                + "agree,"), lines.get(0));
        assertEquals(1 + 3, lines.size(), "3 pairs of 3 subjects on one workload: " + o.out());
        String swapped = row(lines, "plaintext,java-netty,go-nethttp,");
        String[] f = swapped.split(",");
        assertEquals(1.5, Double.parseDouble(f[3]), 0.02);
        assertEquals(0.72, Double.parseDouble(f[4]), 0.01);
        assertTrue(Double.parseDouble(f[6]) > 1.5, "the CI excludes 1 by far: " + swapped);
        assertEquals("false", f[8], swapped);
        assertTrue(swapped.contains("connections: 16 in A, 256 in B"), swapped);
        assertTrue(swapped.contains("server CPUs: 1 (0) in A, 2 (0-1) in B"), swapped);
        String kept = row(lines, "plaintext,node-http,go-nethttp,");
        assertEquals("true", kept.split(",")[8], kept);
    }

    @Test
    void textShowsTheEnvironmentTheSwapAndTheFacts() throws IOException {
        Path[] e = twoExperiments();
        CliRun o = CliRun.of("compare", e[0].toString(), e[1].toString());
        assertEquals(0, o.code(), o.err());
        String out = o.out();
        assertTrue(out.startsWith("Reconciling rps across 2 experiments: A = " + e[0]), out);
        assertTrue(out.contains("Environment and set-up"), out);
        assertTrue(out.contains("java-netty / go-nethttp"), "the swapped pair is named: " + out);
        assertTrue(out.contains("java-netty > go-nethttp > node-http"), "A's order: " + out);
        assertTrue(out.contains("go-nethttp > java-netty > node-http"), "B's order: " + out);
        assertTrue(out.contains("What differs next to each pair that disagrees (facts, not causes)"), out);
        assertTrue(out.contains("- connections: 16 in A, 256 in B"), out);
        assertTrue(out.contains("Two experiments disagree on a pair only with at least 3 rounds"), out);
    }

    @Test
    void poolKeepsTheOldMeaningOfSeveralFolders() throws IOException {
        Path[] e = twoExperiments();
        CliRun o = CliRun.of("compare", e[0].toString(), e[1].toString(), "--pool", "--format", "csv");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("subject,workload,metric,n,"), o.out());
    }

    private static String row(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + prefix + " in\n" + String.join("\n", lines)));
    }
}
