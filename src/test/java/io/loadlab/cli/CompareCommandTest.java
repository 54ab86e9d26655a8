package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code loadlab compare} on the committed sample experiment. */
class CompareCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static final String SAMPLE = System.getProperty("user.dir") + "/data/sample";
    private static final String PROTOCOLS = System.getProperty("user.dir") + "/data/protocols-sample";

    @Test
    void enginesPrintEachEngineAgainstTheBuiltInOneThenTheOrders() {
        CliRun o = run("compare", System.getProperty("user.dir") + "/data/sample-engines", "--engines");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertEquals("rps by engine, each against the built-in engine on the same subject and workload", lines.get(0));
        assertTrue(lines.get(2).matches("workload +subject +engine +n +mean +builtin +ratio +ratio 95% CI +test +p_test"
                + " +verdict"), lines.get(2));
        assertTrue(lines.stream().anyMatch(l -> l.matches("plaintext +java-netty \\[durability=memory] +wrk +3 .*")),
                o.out());
        int orders = lines.indexOf("Order of the subjects by rps (best first)");
        assertTrue(orders > 3, o.out());
        assertTrue(lines.get(orders + 2).matches("workload +engine +order +builtin order +same +clear swaps +spearman"),
                lines.get(orders + 2));
        CliRun csv = run("compare", System.getProperty("user.dir") + "/data/sample-engines", "--engines", "--format",
                "csv");
        assertEquals(0, csv.code(), csv.err());
        assertEquals(lines.subList(3, orders - 1).size(), csv.out().lines().count() - 1, "a CSV row per text row");
    }

    @Test
    void csvHasTheDocumentedColumnsFirstAndARowPerSubjectAndWorkload() {
        CliRun o = run("compare", SAMPLE, "--format", "csv");
        assertEquals(0, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.get(0).startsWith("subject,workload,metric,n,mean,sd,ci_low,ci_high,ratio,ratio_ci_low,"
                + "ratio_ci_high,p_welch,p_mannwhitney,verdict"), lines.get(0));
        assertEquals(1 + 9, lines.size(), "3 subjects x 3 workloads");
        // Without --baseline the first subject by name is the baseline.
        List<String> baselines = lines.stream().skip(1).filter(l -> l.contains(",baseline,")).toList();
        assertEquals(3, baselines.size(), String.join("\n", lines));
        assertTrue(baselines.stream().allMatch(l -> l.startsWith("go-nethttp,")), String.join("\n", baselines));
        assertTrue(lines.stream().skip(1).allMatch(l -> l.split(",")[3].equals("5")), "5 rounds each");
    }

    @Test
    void csvEndsWithTheAdjustedPTheEquivalenceTestAndWhatTheExperimentCouldDetect() {
        List<String> holm = run("compare", SAMPLE, "--format", "csv").out().lines().toList();
        assertTrue(holm.get(0).endsWith(",test,p_test,p_adjusted,adjustment,p_equivalence,smallest_detectable,"
                + "rounds_advised"), holm.get(0));
        List<String> header = List.of(holm.get(0).split(","));
        int pTest = header.indexOf("p_test");
        int adjusted = header.indexOf("p_adjusted");
        // Two subjects against the baseline on each workload: Holm multiplies the smaller p by 2 (at most 1).
        for (String line : holm.subList(1, holm.size())) {
            String[] f = line.split(",", -1);
            if (f[pTest].isEmpty()) {
                assertEquals("", f[adjusted], line);
                continue;
            }
            assertTrue(Double.parseDouble(f[adjusted]) >= Double.parseDouble(f[pTest]), line);
            assertEquals("holm", f[header.indexOf("adjustment")], line);
        }
        List<String> none = run("compare", SAMPLE, "--format", "csv", "--no-adjust").out().lines().toList();
        for (String line : none.subList(1, none.size())) {
            String[] f = line.split(",", -1);
            assertEquals(f[pTest], f[adjusted], line);
            assertEquals("none", f[header.indexOf("adjustment")], line);
        }
    }

    @Test
    void csvWritesInfinitiesAsPandasReadsThemAndLeavesUndefinedEmpty() {
        assertEquals(List.of("inf", "-inf", "", "19", "0.5"), java.util.stream.DoubleStream.of(Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Double.NaN, 19, 0.5).mapToObj(CompareCommand::n).toList());
    }

    @Test
    void textNamesTheAdjustmentInItsHeaderAndRule() {
        String holm = run("compare", SAMPLE).out();
        assertTrue(holm.lines().anyMatch(l -> l.contains(" p_test ") && l.contains(" p_holm ")), holm);
        assertTrue(holm.contains("after Holm's adjustment within each workload"), holm);
        assertTrue(holm.contains("Equivalent: the ratio's 90% CI lies inside 1 ± 1%"), holm);
        String none = run("compare", SAMPLE, "--no-adjust").out();
        assertTrue(none.lines().noneMatch(l -> l.contains(" p_holm ") || l.contains(" p_none ")), none);
        assertTrue(none.contains("not adjusted for multiplicity"), none);
    }

    @Test
    void metricP99ComparesThePerRoundRatiosOfEachRunsOwnP99() {
        CliRun o = run("compare", SAMPLE, "--metric", "p99");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("lat_p99_us across rounds"), o.out());
        assertTrue(o.out().contains("ratio: the mean over rounds of each round's p99 ratio to the baseline's"), o.out());
        CliRun csv = run("compare", SAMPLE, "--metric", "p99.9", "--format", "csv");
        assertEquals(0, csv.code(), csv.err());
        assertTrue(csv.out().lines().skip(1).allMatch(l -> l.contains(",lat_p999_us,")), csv.out());
    }

    @Test
    void textShowsVerdictsAndWarningsWithTheChosenBaseline() {
        CliRun o = run("compare", SAMPLE, "--baseline", "node-http", "--metric", "rps_per_server_cpu_s");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("rps_per_server_cpu_s across rounds, baseline node-http"), o.out());
        assertTrue(o.out().contains("verdict"), o.out());
        assertTrue(o.out().contains("Warnings (") || o.out().contains("No warnings."), o.out());
    }

    @Test
    void badInputGivesOneLineAndExitTwo() {
        CliRun unknown = run("compare", SAMPLE, "--baseline", "nginx");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("loadlab: baseline 'nginx' is not a subject"), unknown.err());
        CliRun notExperiment = run("compare", System.getProperty("user.dir") + "/docs");
        assertEquals(2, notExperiment.code());
        assertTrue(notExperiment.err().contains("is not an experiment folder"), notExperiment.err());
        CliRun metric = run("compare", SAMPLE, "--metric", "speed");
        assertEquals(2, metric.code());
        assertTrue(metric.err().contains("unknown metric 'speed'"), metric.err());
    }

    @Test
    void protocolVariantsGetACostOfProtocolsSectionAndCsvTable() {
        CliRun o = run("compare", PROTOCOLS, "--baseline", "nginx");
        assertEquals(0, o.code(), o.err());
        String out = o.out();
        int section = out.indexOf("Cost of protocols: each protocol against the same subject's h1 runs");
        assertTrue(section > out.indexOf("Warnings ("), out);
        String part = out.substring(section);
        assertTrue(part.contains("requests per server CPU-second (below 1"), part);
        // nginx's h1-tls per server CPU-second: 82,304 against 128,651 over h1 in the committed runs.
        assertTrue(part.lines().anyMatch(l -> l.matches("plaintext\\s+nginx\\s+h1-tls\\s+3\\s+82,304\\s+\\S+\\s+128,651\\s+\\S+"
                + "\\s+0\\.640\\s+\\[\\S+, \\S+\\]\\s+paired\\s+\\S+\\s+slower")), part);
        assertFalse(run("compare", SAMPLE).out().contains("Cost of protocols"), "no protocol variants, no section");

        CliRun csv = run("compare", PROTOCOLS, "--format", "csv", "--table", "protocols");
        assertEquals(0, csv.code(), csv.err());
        List<String> lines = csv.out().lines().toList();
        assertTrue(lines.get(0).startsWith("subject,variant,workload,protocol,metric,n,mean,cv,h1_n,h1_mean,h1_cv,ratio,"
                + "ratio_ci_low,ratio_ci_high,test,p_test,p_welch,verdict"), lines.get(0));
        assertEquals(1 + 16, lines.size(), "8 protocol variants x 2 metrics");
        CliRun none = run("compare", SAMPLE, "--format", "csv", "--table", "protocols");
        assertEquals(2, none.code());
        assertTrue(none.err().contains("--table protocols needs an experiment with protocol variants"), none.err());
    }
}
