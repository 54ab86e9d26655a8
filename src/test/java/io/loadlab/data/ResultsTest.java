package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

class ResultsTest {

    static final Path SAMPLE = Path.of(System.getProperty("user.dir"), "data", "sample");

    @Test
    void theSampleLoadsWithTypedColumnsAndEveryRun() {
        Results r = Results.load(SAMPLE);
        Table runs = r.runs();
        assertEquals(45, runs.rowCount(), "3 subjects x 3 workloads x 5 rounds");
        assertEquals(RunRow.COLUMNS, runs.columnNames());
        assertEquals(List.of("go-nethttp", "java-netty", "node-http"),
                runs.stringColumn("subject").unique().asList().stream().sorted().toList());
        assertTrue(runs.doubleColumn("rps").min() > 0);
        assertEquals(5, runs.intColumn("round").max());
        assertTrue(runs.column("target_rps").isMissing(0), "closed loop: the target rate is missing, not 0");
        assertEquals(r.okRuns().rowCount(), runs.where(runs.stringColumn("status").isEqualTo("ok")).rowCount());
    }

    @Test
    void mergedHistogramsHoldEveryRequestOfTheSuccessfulRuns() {
        Results r = Results.load(SAMPLE);
        Table ok = r.okRuns();
        for (String subject : List.of("java-netty", "go-nethttp", "node-http")) {
            Table mine = ok.where(ok.stringColumn("subject").isEqualTo(subject)
                    .and(ok.stringColumn("workload").isEqualTo("json")));
            String variant = mine.stringColumn("variant").get(0);
            long requests = (long) mine.longColumn("requests").sum();
            Histogram merged = r.latency(subject, variant, "json");
            assertEquals(requests, merged.getTotalCount(), subject);
            // Merged, not averaged: the merged p99 lies within the range of the runs' p99s.
            long p99 = merged.getValueAtPercentile(99);
            assertTrue(p99 >= mine.longColumn("lat_p99_us").min() * 0.99 && p99 <= mine.longColumn("lat_p99_us").max() * 1.01,
                    subject + " merged p99 " + p99);
        }
        Map<String, Histogram> spectrum = r.latencyByLabel("json");
        assertEquals(3, spectrum.size());
        Table pct = r.latencyPercentiles();
        assertEquals(9, pct.rowCount());
    }

    @Test
    void mergedPercentilesEqualThoseOfHdrHistogramsOwnReaderOverTheSameRuns() throws IOException {
        // Oracle: read latency.hlog with HdrHistogram's own HistogramLogReader, add up the
        // intervals of node-http's put-1k runs, and compare every reported percentile.
        Results r = Results.load(SAMPLE);
        Table ok = r.okRuns();
        Table mine = ok.where(ok.stringColumn("subject").isEqualTo("node-http")
                .and(ok.stringColumn("workload").isEqualTo("put-1k")));
        java.util.Set<String> ids = new java.util.HashSet<>();
        mine.intColumn("run_id").forEach(id -> ids.add(Integer.toString(id)));
        Histogram expected = new Histogram(3);
        org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(
                SAMPLE.resolve("latency.hlog").toString());
        org.HdrHistogram.EncodableHistogram e;
        while ((e = reader.nextIntervalHistogram()) != null) {
            if (ids.contains(e.getTag())) {
                expected.add((Histogram) e);
            }
        }
        Histogram merged = r.latency("node-http", mine.stringColumn("variant").get(0), "put-1k");
        assertEquals(expected.getTotalCount(), merged.getTotalCount());
        for (double p : new double[] {50, 90, 99, 99.9, 99.99, 100}) {
            assertEquals(expected.getValueAtPercentile(p), merged.getValueAtPercentile(p), "p" + p);
        }
        Table pct = r.latencyPercentiles();
        Table row = pct.where(pct.stringColumn("subject").isEqualTo("node-http")
                .and(pct.stringColumn("workload").isEqualTo("put-1k")));
        assertEquals(expected.getValueAtPercentile(99.9), row.longColumn("p999_us").get(0));
    }

    @Test
    void intervalsHaveOneRowPerRunAndSecond() {
        Results r = Results.load(SAMPLE);
        Table iv = r.intervals();
        Table ok = r.okRuns();
        assertEquals((long) ok.longColumn("requests").sum(), (long) iv.longColumn("requests").sum());
        assertTrue(iv.rowCount() >= ok.rowCount() * 2, "2 s windows give two intervals per run");
        assertEquals(0.0, iv.where(iv.intColumn("run_id").isEqualTo(1)).doubleColumn("t_s").min());
    }

    @Test
    void aFolderThatIsNotAnExperimentIsNamed(@TempDir Path tmp) {
        DataException e = assertThrows(DataException.class, () -> Results.load(tmp));
        assertTrue(e.getMessage().startsWith(tmp + " is not an experiment folder"), e.getMessage());
    }

    @Test
    void aDamagedRowIsNamedWithFileAndLine(@TempDir Path tmp) throws IOException {
        Path dir = copySample(tmp, "damaged");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(dir.resolve("runs.csv")));
        lines.set(3, lines.get(3).replaceFirst(",ok,", ",ok,extra,"));
        Files.write(dir.resolve("runs.csv"), lines);
        DataException e = assertThrows(DataException.class, () -> Results.load(dir));
        assertTrue(e.getMessage().startsWith(dir.resolve("runs.csv") + ":4: damaged row"), e.getMessage());

        lines.set(3, Files.readAllLines(SAMPLE.resolve("runs.csv")).get(3).replaceFirst(",closed_loop,", ",closed_loop,x"));
        Files.write(dir.resolve("runs.csv"), lines);
        e = assertThrows(DataException.class, () -> Results.load(dir));
        assertTrue(e.getMessage().contains(":4: column 'warmup_s' holds 'x"), e.getMessage());
    }

    @Test
    void theSameFolderTwiceIsRefusedBecauseItsRoundsWouldCountDouble() {
        DataException e = assertThrows(DataException.class, () -> Results.load(SAMPLE, SAMPLE.resolve(".")));
        assertTrue(e.getMessage().endsWith("is given twice: its rounds would count double"), e.getMessage());
    }

    @Test
    void aRowCutOffByAKillIsLeftOutAndTheRestLoads(@TempDir Path tmp) throws IOException {
        // Regression: a torn last line (no line feed) made the whole experiment unreadable.
        Path dir = copySample(tmp, "killed");
        Files.writeString(dir.resolve("runs.csv"), "sample,46,5,3,node-http,durab", java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("latency.hlog"), "Tag=46,0.000,1.0,HISTF", java.nio.file.StandardOpenOption.APPEND);
        Results r = Results.load(dir);
        assertEquals(45, r.runs().rowCount());
        assertEquals(Results.load(SAMPLE).latency("node-http", "durability=memory", "json").getTotalCount(),
                r.latency("node-http", "durability=memory", "json").getTotalCount());
    }

    @Test
    void anExperimentWithoutTheOptionalColumnsLoadsThemEmpty(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("old"));
        Files.writeString(dir.resolve("runs.csv"), String.join(",", RunRow.FIXED_COLUMNS) + "\n"
                + "old,1,1,1,s,,plaintext,wrk,64,1,,10,1000,100,5000,0,0,0,0,0,0,,,,,,,,,,,,,,,,,ok,\n");
        Results r = Results.load(dir);
        Table runs = r.runs();
        assertEquals(1, runs.rowCount());
        assertTrue(runs.column("svc_p99_us").isMissing(0));
        assertTrue(runs.column("lat_p99_us").isMissing(0));
        assertEquals(100.0, runs.doubleColumn("rps").get(0));
        assertEquals(0, r.intervals().rowCount(), "no latency.hlog: no intervals");
    }

    @Test
    void aResultsSaysInOneLineWhatItHolds(@TempDir Path tmp) throws IOException {
        assertEquals("Results[" + SAMPLE + ": 45 runs, 3 subjects \u00d7 3 workloads]", Results.load(SAMPLE).toString());
        Path other = copySample(tmp, "other");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(other.resolve("runs.csv")));
        lines.replaceAll(l -> l.startsWith("sample,") ? "other," + l.substring(7) : l);
        lines.set(1, lines.get(1).replace(",ok,", ",failed,"));
        lines.set(2, lines.get(2).replace(",plaintext,", ",json,").replace(",go-nethttp,", ",new-subject,"));
        Files.write(other.resolve("runs.csv"), lines);
        assertEquals("Results[" + SAMPLE + ", " + other + ": 90 runs (1 failed), 4 subjects \u00d7 3 workloads]",
                Results.load(SAMPLE, other).toString());
    }

    @Test
    void aRunsCsvWithWindowsLineEndsLoadsAsTheSame(@TempDir Path tmp) throws IOException {
        Path dir = copySample(tmp, "crlf");
        Files.writeString(dir.resolve("runs.csv"), String.join("\r\n", Files.readAllLines(SAMPLE.resolve("runs.csv")))
                + "\r\n");
        Table crlf = Results.load(dir).runs();
        Table lf = Results.load(SAMPLE).runs();
        assertEquals(lf.columnNames(), crlf.columnNames());
        for (int c = 0; c < lf.columnCount(); c++) {
            assertEquals(lf.column(c).asList(), crlf.column(c).asList(), lf.column(c).name());
        }
    }

    @Test
    void aColumnThisVersionDoesNotKnowIsKeptAsTextAfterTheKnownOnes(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("newer"));
        Files.writeString(dir.resolve("runs.csv"), String.join(",", RunRow.FIXED_COLUMNS) + ",gpu_model\n"
                + "newer,1,1,1,s,,plaintext,wrk,64,1,,10,1000,100,5000,0,0,0,0,0,0,,,,,,,,,,,,,,,,,ok,,\"H100, 80 GB\"\n");
        Table runs = Results.load(SAMPLE, dir).runs();
        assertEquals("gpu_model", runs.columnNames().get(runs.columnCount() - 1));
        assertEquals(RunRow.COLUMNS, runs.columnNames().subList(0, RunRow.COLUMNS.size()));
        assertEquals("", runs.stringColumn("gpu_model").get(0), "data/sample has no such column");
        assertEquals("H100, 80 GB", runs.stringColumn("gpu_model").get(45));
        assertTrue(runs.column("warmup_s").isMissing(45), "a known column the newer file lacks is missing");
    }

    @Test
    void aHeaderThatNamesAColumnTwiceOrAValueOfTheWrongKindIsNamedWithFileAndLine(@TempDir Path tmp)
            throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("bad"));
        Path csv = dir.resolve("runs.csv");
        Files.writeString(csv, "experiment,run_id,subject,workload,status,subject\n");
        DataException e = assertThrows(DataException.class, () -> Results.load(dir));
        assertTrue(e.getMessage().startsWith(csv + ":1: the header names a column twice"), e.getMessage());
        String header = "experiment,run_id,subject,workload,status,requests,load_bound\n";
        Files.writeString(csv, header + "bad,1,s,w,ok,100,false\n\nbad,2,s,w,ok,1.5,false\n");
        e = assertThrows(DataException.class, () -> Results.load(dir));
        assertEquals(csv + ":4: column 'requests' holds '1.5', which is not a whole number", e.getMessage());
        Files.writeString(csv, header + "bad,1,s,w,ok,100,yes\n");
        e = assertThrows(DataException.class, () -> Results.load(dir));
        assertEquals(csv + ":2: column 'load_bound' holds 'yes', which is not a true/false value", e.getMessage());
        Files.writeString(csv, "experiment,run_id,subject,work");
        e = assertThrows(DataException.class, () -> Results.load(dir));
        assertTrue(e.getMessage().startsWith(csv + ":1: not a runs.csv header"), "only a cut-off header: " + e.getMessage());
    }

    private static Path copySample(Path tmp, String name) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        for (String f : List.of("runs.csv", "experiment.json", "latency.hlog")) {
            Files.copy(SAMPLE.resolve(f), dir.resolve(f));
        }
        return dir;
    }
}
