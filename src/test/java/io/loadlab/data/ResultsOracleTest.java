package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * The streaming load against a straightforward reference decode of the same files: HdrHistogram's
 * own {@link HistogramLogReader} for the merged histograms, and the whole file split into lines
 * with each payload decoded by HdrHistogram for the intervals.
 */
class ResultsOracleTest {

    static final Path SAMPLE = ResultsTest.SAMPLE;
    private static final int COPIES = 30;

    /**
     * Percentiles of data/sample (as remade on 2026-12-01, 23:09-23:14 UTC) as the load before the
     * redesign (commit 85e07a2) gives them.
     */
    private static final String SAMPLE_PERCENTILES = """
            go-nethttp,durability=memory,json,1006049,613,1079,1633,2839,4883,5763
            go-nethttp,durability=memory,plaintext,974870,625,1106,2035,2951,6099,7523
            go-nethttp,durability=memory,put-1k,794668,769,1359,2449,3135,4823,5947
            java-netty,durability=memory,json,1847990,334,389,545,1421,5335,6779
            java-netty,durability=memory,plaintext,1733608,353,408,613,2495,4699,5287
            java-netty,durability=memory,put-1k,1461999,417,475,617,6603,6859,7311
            node-http,durability=memory,json,797881,745,1016,1463,2351,4431,5367
            node-http,durability=memory,plaintext,788816,756,1005,1523,2377,4175,5571
            node-http,durability=memory,put-1k,580089,910,1341,4387,11047,14839,15375
            """;

    @Test
    void theSamplesMergedPercentilesAreThoseOfTheLoadBeforeTheRedesign() {
        Table pct = Results.load(SAMPLE).latencyPercentiles();
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < pct.rowCount(); i++) {
            List<String> values = new ArrayList<>();
            for (int c = 0; c < pct.columnCount(); c++) {
                values.add(pct.column(c).getString(i));
            }
            rows.append(String.join(",", values)).append('\n');
        }
        assertEquals(SAMPLE_PERCENTILES, rows.toString());
    }

    @Test
    void theSampleEqualsTheReferenceDecode() throws IOException, DataFormatException {
        assertEqualsReference(SAMPLE);
    }

    @Test
    void aLogOfSeveralChunksWithServiceOrphanAndFailedRunsEqualsTheReferenceDecode(@TempDir Path tmp)
            throws IOException, DataFormatException {
        Path dir = multiplied(tmp.resolve("big"));
        assertTrue(Files.size(dir.resolve("latency.hlog")) > 2 * LineChunks.CHUNK_BYTES, "several chunks");
        Results r = assertEqualsReference(dir);
        assertEquals(COPIES * 45 - 1, r.okRuns().rowCount(), "one failed run");
    }

    @Test
    void aGroupAskedForAfterAnotherIsReadByPositionAndEqualsTheWholeMerge(@TempDir Path tmp) throws IOException {
        Path dir = multiplied(tmp.resolve("big"));
        assertTrue(Files.size(dir.resolve("latency.hlog")) / 9 > 2 * HlogReader.BATCH_BYTES, "several batches a group");
        Results oneByOne = Results.load(dir);
        Results all = Results.load(dir);
        Table pct = all.latencyPercentiles();
        for (int i = pct.rowCount() - 1; i >= 0; i--) {
            String s = pct.stringColumn("subject").get(i);
            String v = pct.stringColumn("variant").get(i);
            String w = pct.stringColumn("workload").get(i);
            assertEquals(all.latency(s, v, w), oneByOne.latency(s, v, w), s + " " + v + " " + w);
        }
        assertEquals(rows(all.latencyPercentiles()), rows(oneByOne.latencyPercentiles()));
    }

    /** The merged histograms and the intervals of a folder, against the reference; returns the load. */
    private static Results assertEqualsReference(Path dir) throws IOException, DataFormatException {
        Results r = Results.load(dir);
        Table runs = r.runs();
        Map<String, Integer> rowById = new HashMap<>();
        for (int i = 0; i < runs.rowCount(); i++) {
            rowById.put(Integer.toString(runs.intColumn("run_id").get(i)), i);
        }
        AnalysisGroups groups = AnalysisGroups.of(runs);
        Map<String, Histogram> expected = new TreeMap<>();
        HistogramLogReader reader = new HistogramLogReader(dir.resolve("latency.hlog").toString());
        for (EncodableHistogram e = reader.nextIntervalHistogram(); e != null; e = reader.nextIntervalHistogram()) {
            Integer row = e.getTag() == null ? null : rowById.get(e.getTag());
            if (row != null && runs.stringColumn("status").get(row).equals("ok")) {
                String key = runs.stringColumn("subject").get(row) + "|" + groups.variant(row) + "|"
                        + runs.stringColumn("workload").get(row);
                expected.computeIfAbsent(key, k -> new Histogram(3)).add((Histogram) e);
            }
        }
        Table pct = r.latencyPercentiles();
        assertEquals(expected.size(), pct.rowCount());
        int i = 0;
        for (Map.Entry<String, Histogram> e : expected.entrySet()) {
            String[] k = e.getKey().split("\\|", -1);
            assertEquals(List.of(k[0], k[1], k[2]), List.of(pct.stringColumn("subject").get(i),
                    pct.stringColumn("variant").get(i), pct.stringColumn("workload").get(i)), "group order");
            Histogram h = e.getValue();
            assertEquals(List.of(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                    h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99),
                    h.getMaxValue()), List.of(pct.longColumn("requests").get(i), pct.longColumn("p50_us").get(i),
                    pct.longColumn("p90_us").get(i), pct.longColumn("p99_us").get(i), pct.longColumn("p999_us").get(i),
                    pct.longColumn("p9999_us").get(i), pct.longColumn("max_us").get(i)), e.getKey());
            assertEquals(h, r.latency(k[0], k[1], k[2]), e.getKey());
            assertEquals(h, r.latencyByLabel(k[2]).get(k[1].isEmpty() ? k[0] : k[0] + " [" + k[1] + "]"), e.getKey());
            i++;
        }
        assertEquals(referenceIntervals(dir, runs, rowById), rows(r.intervals()));
        return r;
    }

    /** The intervals table's rows as the reference makes them: every latency line of a run with a row. */
    private static List<List<String>> referenceIntervals(Path dir, Table runs, Map<String, Integer> rowById)
            throws IOException, DataFormatException {
        List<List<String>> out = new ArrayList<>();
        Map<Integer, Double> first = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("latency.hlog"), StandardCharsets.US_ASCII)) {
            String[] f = line.split(",");
            Integer row = line.startsWith("Tag=") ? rowById.get(f[0].substring(4)) : null;
            if (row == null) {
                continue;
            }
            Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(f[4])), 0);
            double start = Double.parseDouble(f[1]);
            double t = Math.round((start - first.computeIfAbsent(row, x -> start)) * 1000) / 1000.0;
            boolean empty = h.getTotalCount() == 0;
            out.add(List.of(runs.stringColumn("experiment").get(row), f[0].substring(4),
                    runs.stringColumn("subject").get(row), runs.stringColumn("variant").get(row),
                    runs.stringColumn("workload").get(row), runs.intColumn("round").getString(row), Double.toString(t),
                    Long.toString(h.getTotalCount()),
                    Double.toString(h.getTotalCount() / Math.max(1e-3, Double.parseDouble(f[2]))),
                    empty ? "" : Long.toString(h.getValueAtPercentile(50)),
                    empty ? "" : Long.toString(h.getValueAtPercentile(90)),
                    empty ? "" : Long.toString(h.getValueAtPercentile(99)), empty ? "" : Long.toString(h.getMaxValue())));
        }
        return out;
    }

    private static List<List<String>> rows(Table iv) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < iv.rowCount(); i++) {
            List<String> row = new ArrayList<>();
            for (int c = 0; c < iv.columnCount(); c++) {
                Object v = iv.column(c).get(i);
                row.add(iv.column(c).isMissing(i) ? "" : v.toString());
            }
            out.add(row);
        }
        return out;
    }

    @Test
    void aDamagedIntervalIsNamedByFileAndLineWhenItsGroupIsAskedFor(@TempDir Path tmp) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("damaged"));
        for (String f : List.of("runs.csv", "experiment.json", "latency.hlog")) {
            Files.copy(SAMPLE.resolve(f), dir.resolve(f));
        }
        Path hlog = dir.resolve("latency.hlog");
        List<String> lines = new ArrayList<>(Files.readAllLines(hlog, StandardCharsets.US_ASCII));
        // Run 2 is go-nethttp's json run of round 1; its payload loses its middle.
        int damaged = lines.indexOf(lines.stream().filter(l -> l.startsWith("Tag=2,")).findFirst().orElseThrow());
        String line = lines.get(damaged);
        lines.set(damaged, line.substring(0, line.length() / 2) + "!!" + line.substring(line.length() / 2 + 2));
        Files.write(hlog, lines, StandardCharsets.US_ASCII);
        Results r = Results.load(dir); // the logs are read when their figures are asked for
        Results sample = Results.load(SAMPLE);
        assertEquals(sample.latency("node-http", "durability=memory", "json"),
                r.latency("node-http", "durability=memory", "json"), "another group reads");
        String where = hlog + ":" + (damaged + 1) + ": damaged interval line";
        for (int attempt = 0; attempt < 2; attempt++) {
            DataException e = assertThrows(DataException.class, () -> r.latency("go-nethttp", "durability=memory", "json"));
            assertTrue(e.getMessage().startsWith(where), e.getMessage());
        }
        DataException all = assertThrows(DataException.class, r::latencyPercentiles);
        assertTrue(all.getMessage().startsWith(where), all.getMessage());
        DataException iv = assertThrows(DataException.class, r::intervals);
        assertTrue(iv.getMessage().startsWith(where), iv.getMessage());
        // The first pass was never finished by a damaged line in a fresh load either.
        Results fresh = Results.load(dir);
        assertThrows(DataException.class, fresh::latencyPercentiles);
        assertNotEquals(0, fresh.latency("node-http", "durability=memory", "json").getTotalCount());
    }

    /**
     * data/sample {@value #COPIES} times over as one experiment (run ids and rounds shifted), with
     * what a log may also hold: a comment, service-time and untagged intervals, intervals of a run
     * without a row; and one failed run.
     */
    private static Path multiplied(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> csv = Files.readAllLines(SAMPLE.resolve("runs.csv"), StandardCharsets.UTF_8);
        List<String> hlog = Files.readAllLines(SAMPLE.resolve("latency.hlog"), StandardCharsets.US_ASCII);
        List<String> csvOut = new ArrayList<>(List.of(csv.get(0)));
        List<String> hlogOut = new ArrayList<>(hlog.stream().filter(l -> !l.startsWith("Tag=")).toList());
        for (int k = 0; k < COPIES; k++) {
            for (String row : csv.subList(1, csv.size())) {
                String[] v = row.split(",", -1);
                v[1] = Integer.toString(Integer.parseInt(v[1]) + 45 * k);
                v[2] = Integer.toString(Integer.parseInt(v[2]) + 5 * k);
                if (k == 1 && v[1].equals("50")) {
                    v[37] = "failed";
                }
                csvOut.add(String.join(",", v));
            }
            for (String line : hlog.stream().filter(l -> l.startsWith("Tag=")).toList()) {
                int comma = line.indexOf(',');
                int id = Integer.parseInt(line.substring(4, comma)) + 45 * k;
                hlogOut.add("Tag=" + id + line.substring(comma));
                if (k == 0 && id == 7) {
                    hlogOut.add("#[a comment between intervals]");
                    hlogOut.add("Tag=7-service" + line.substring(comma));
                    hlogOut.add("Tag=99999" + line.substring(comma));
                    hlogOut.add(line.substring(comma + 1));
                }
            }
        }
        Files.write(dir.resolve("runs.csv"), csvOut, StandardCharsets.UTF_8);
        Files.write(dir.resolve("latency.hlog"), hlogOut, StandardCharsets.US_ASCII);
        Files.copy(SAMPLE.resolve("experiment.json"), dir.resolve("experiment.json"));
        return dir;
    }
}
