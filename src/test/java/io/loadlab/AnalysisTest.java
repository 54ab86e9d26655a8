package io.loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.DataException;
import io.loadlab.data.GroupLatency;
import io.loadlab.data.Results;
import io.loadlab.stats.Compared;
import io.loadlab.stats.StatsException;
import io.loadlab.stats.Verdict;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** The JShell and notebook API: one-call answers, and names that match nothing. */
class AnalysisTest {

    private static final Path SAMPLE = Path.of(System.getProperty("user.dir"), "data/sample");
    private static final Path PROTOCOLS = Path.of(System.getProperty("user.dir"), "data/protocols-sample");

    @Test
    void compareInOneCallSaysOneSentencePerGroup() {
        Compared c = Loadlab.load(SAMPLE.toString()).compare("go-nethttp");
        assertEquals("rps", c.metric());
        assertEquals(9, c.rows().size());
        assertEquals(3, c.rows().stream().filter(r -> r.verdict() == Verdict.BASELINE).count());
        assertEquals(6, c.sentences().size());
        assertTrue(c.toString().startsWith("java-netty [durability=memory] ran 1.84× [1.82, 1.87] faster than"
                + " go-nethttp [durability=memory] on json (paired, n = 5)\n"), c.toString());
        assertEquals(9, c.table().rowCount());
    }

    @Test
    void summaryAndLatencyInOneCall() {
        Analysis results = Loadlab.load(SAMPLE.toString());
        Table s = results.summary("rps_per_server_cpu_s");
        assertEquals(9, s.rowCount());
        assertEquals("rps_per_server_cpu_s", s.stringColumn("metric").get(0));
        GroupLatency l = results.latency("java-netty", "json");
        Histogram h = results.latency("java-netty", "durability=memory", "json");
        assertTrue(l.count() > 0 && l.count() == h.getTotalCount());
        assertEquals(h.getValueAtPercentile(99.9), l.p(99.9));
        assertTrue(l.p(50) > 0 && l.p(50) <= l.p(99.9));
        assertTrue(l.toString().startsWith("GroupLatency[java-netty [durability=memory] / json: "), l.toString());
        assertThrows(DataException.class, () -> l.p(0));
    }

    @Test
    void aNameThatMatchesNothingIsAnErrorListingTheNames() {
        Results r = Results.load(SAMPLE);
        assertEquals("no subject 'nginx' in these runs; subjects: go-nethttp, java-netty, node-http",
                assertThrows(DataException.class, () -> r.latency("nginx", "json")).getMessage());
        assertEquals("no workload 'jsn' in these runs; workloads: json, plaintext, put-1k",
                assertThrows(DataException.class, () -> r.latency("java-netty", "", "jsn")).getMessage());
        assertEquals("subject 'java-netty' has no variant 'durability=fsync' on workload 'json'; its variants there:"
                + " durability=memory", assertThrows(DataException.class,
                        () -> r.latency("java-netty", "durability=fsync", "json")).getMessage());
        // Before, an empty histogram came back and its percentiles read 0.
        assertThrows(DataException.class, () -> r.latency("java-netty", "", "json"));
        StatsException baseline = assertThrows(StatsException.class,
                () -> new Analysis(r).compare("nginx"));
        assertTrue(baseline.getMessage().contains("go-nethttp, java-netty, node-http"), baseline.getMessage());
        assertThrows(StatsException.class, () -> new Analysis(r).summary("speed"));
    }

    @Test
    void aSubjectWithSeveralVariantsAsksForOne() {
        Results r = Results.load(PROTOCOLS);
        DataException e = assertThrows(DataException.class, () -> r.latency("nginx", "plaintext"));
        assertTrue(e.getMessage().startsWith("subject 'nginx' has "), e.getMessage());
        assertTrue(e.getMessage().contains("protocol=h2-tls") && e.getMessage().contains("name one: latency(\"nginx\""),
                e.getMessage());
    }
}
