package io.loadlab.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each fixture parses to the numbers printed in it (read off the fixture text). */
class ImportersTest {

    static String fixture(String name) {
        try (InputStream in = ImportersTest.class.getResourceAsStream("/importer/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts the columns given (pairs column, value); "" means not reported. */
    static void expect(ImportedRun run, String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            assertEquals(pairs[i + 1], run.get(pairs[i]), pairs[i]);
        }
    }

    @Test
    void aFileLargerThanTheCapIsRefusedInOneLineNamingIt(@TempDir Path dir) throws IOException {
        // A sparse file one byte over 64 MiB: before the cap it was read whole and handed to the parsers.
        Path big = dir.resolve("wrk.txt");
        try (FileChannel ch = FileChannel.open(big, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {'\n'}), Importers.MAX_FILE_BYTES);
        }
        ImportException e = org.junit.jupiter.api.Assertions.assertThrows(ImportException.class,
                () -> Importers.parse(big));
        assertEquals(big + " is larger than 64 MiB: it is not the output of one run of a load tool; give the tool's"
                + " output file", e.getMessage());
        Files.writeString(big, fixture("wrk.txt"), StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        assertEquals(Tool.WRK, Importers.detect(Files.readString(big)), "a file under the cap still reads");
        Importers.parse(big);
    }

    @Test
    void wrkWithoutLatencyDistribution() {
        ImportedRun r = Importers.parse(fixture("wrk.txt"));
        assertEquals(Tool.WRK, r.tool());
        expect(r, "engine", "wrk", "threads", "1", "connections", "16", "load_model", "closed_loop",
                "lat_mean_us", "1740", "lat_stdev_us", "4610", "lat_max_us", "64200",
                "requests", "37496", "duration_s", "2.01", "bytes_read", Long.toString(Math.round(2.79 * 1048576)),
                "rps", "18694.37", "errors_connect", "0", "errors_read", "0", "errors_write", "0", "errors_timeout", "0",
                "errors_status", "0", "errors_protocol", "",
                "lat_p50_us", "", "lat_p99_us", "", "target_rps", "", "server_cpu_s", "");
    }

    @Test
    void wrkWithLatencyDistribution() {
        ImportedRun r = Importers.parse(fixture("wrk-latency.txt"));
        expect(r, "threads", "2", "connections", "32", "lat_mean_us", "870", "lat_stdev_us", "1140",
                "lat_max_us", "21140", "lat_p50_us", "611", "lat_p75_us", "910", "lat_p90_us", "2060",
                "lat_p99_us", "5300", "lat_p999_us", "", "requests", "98042", "duration_s", "2",
                "bytes_read", Long.toString(Math.round(7.29 * 1048576)), "rps", "48954.03", "errors_status", "0");
    }

    @Test
    void wrkNon2xxLine() {
        ImportedRun r = Importers.parse(fixture("wrk-non2xx.txt"));
        expect(r, "requests", "82079", "errors_status", "82079", "lat_mean_us", "267.4", "lat_stdev_us", "548.31",
                "lat_p50_us", "137", "lat_p99_us", "2760", "rps", "41028.24");
    }

    @Test
    void wrkSocketErrorsAndNoLatencySamples() {
        ImportedRun r = Importers.parse(fixture("wrk-socket-errors.txt"));
        expect(r, "requests", "8", "duration_s", "3.01", "bytes_read", "624", "rps", "2.66",
                "errors_connect", "0", "errors_read", "0", "errors_write", "0", "errors_timeout", "8",
                // "-nan%": wrk recorded no latency, so its zeros are not measurements.
                "lat_mean_us", "", "lat_max_us", "", "lat_p50_us", "");
    }

    @Test
    void wrk2WithUncorrectedLatency() {
        ImportedRun r = Importers.parse(fixture("wrk2-u-latency.txt"));
        assertEquals(Tool.WRK2, r.tool());
        expect(r, "engine", "wrk2", "load_model", "fixed_rate", "threads", "2", "connections", "64",
                "lat_mean_us", "1213", "lat_stdev_us", "620", "lat_max_us", "9864",
                "lat_p50_us", "1140", "lat_p75_us", "1550", "lat_p90_us", "1980", "lat_p99_us", "3210",
                "lat_p999_us", "6020", "svc_p50_us", "812", "svc_p90_us", "1430", "svc_p99_us", "2300",
                "svc_p999_us", "4510", "requests", "99937", "duration_s", "10",
                "bytes_read", Long.toString(Math.round(12.20 * 1048576)), "rps", "9993.12",
                "errors_read", "2", "errors_timeout", "5", "errors_status", "3", "target_rps", "");
    }

    @Test
    void ohaText() {
        // oha 1.16.0 chose milliseconds for this run; its Requests/sec (37024) also counts the 11
        // requests aborted at the deadline, the rps column does not.
        ImportedRun r = Importers.parse(fixture("oha.txt"));
        assertEquals(Tool.OHA, r.tool());
        expect(r, "engine", "oha", "duration_s", "2.001809", "lat_max_us", "9308", "lat_mean_us", "430.6",
                "rps", "37018.525998", "bytes_read", "963348", "lat_p50_us", "175", "lat_p75_us", "187",
                "lat_p90_us", "303", "lat_p99_us", "5405", "lat_p999_us", "8538", "requests", "74104",
                "errors_status", "0", "errors_read", "0", "errors_connect", "0", "errors_timeout", "0",
                "connections", "");
    }

    @Test
    void ohaTextOfARunWithNoAnswerLeavesTheLatenciesEmpty() {
        // Every request timed out: oha prints NaN and inf, in nanoseconds.
        ImportedRun r = Importers.parse(fixture("oha-timeout.txt"));
        expect(r, "duration_s", "2.000872", "requests", "0", "rps", "0", "errors_timeout", "4", "lat_mean_us", "",
                "lat_max_us", "", "lat_p50_us", "", "lat_p99_us", "", "bytes_read", "0");
    }

    @Test
    void ohaJson() {
        ImportedRun r = Importers.parse(fixture("oha.json"));
        assertEquals(Tool.OHA, r.tool());
        expect(r, "duration_s", "2.001531", "rps", "37548.762186", "bytes_read", "977015", "lat_mean_us", "424.895406",
                "lat_max_us", "9149", "lat_p50_us", "174", "lat_p75_us", "187", "lat_p90_us", "321",
                "lat_p99_us", "5202", "lat_p999_us", "8163", "requests", "75155", "errors_status", "0",
                "errors_read", "0", "errors_timeout", "0", "lat_stdev_us", "");
    }

    @Test
    void ohaJsonCountsNon2xxAsStatusErrorsAndTimeouts() {
        expect(Importers.parse(fixture("oha-non2xx.json")), "requests", "51282", "errors_status", "51282",
                "rps", "25624.751857");
        // null latencies (nothing answered) stay empty, never 0.
        expect(Importers.parse(fixture("oha-timeout.json")), "requests", "0", "errors_timeout", "4",
                "lat_mean_us", "", "lat_p99_us", "", "lat_max_us", "", "duration_s", "2.001631");
        expect(Importers.parse(fixture("oha-rate.json")), "requests", "3998", "rps", "1997.915017");
    }

    @Test
    void hey() {
        ImportedRun r = Importers.parse(fixture("hey.txt"));
        assertEquals(Tool.HEY, r.tool());
        expect(r, "engine", "hey", "duration_s", "2.0054", "lat_max_us", "17800", "lat_mean_us", "1100",
                "rps", "14333.761", "bytes_read", "373685", "lat_p50_us", "1000", "lat_p75_us", "1300",
                "lat_p90_us", "1900", "lat_p99_us", "4000", "requests", "28745", "errors_status", "0",
                "errors_connect", "0", "lat_stdev_us", "", "connections", "");
    }

    @Test
    void h2load() {
        ImportedRun r = Importers.parse(fixture("h2load.txt"));
        assertEquals(Tool.H2LOAD, r.tool());
        expect(r, "engine", "h2load", "duration_s", "2", "rps", "41697.5", "requests", "83395",
                "errors_protocol", "0", "errors_timeout", "0", "errors_status", "0", "bytes_read", "6504810",
                "lat_max_us", "10940", "lat_mean_us", "383", "lat_stdev_us", "364", "connections", "16", "threads", "1",
                "lat_p50_us", "");
    }

    @Test
    void abKeepAlive() {
        ImportedRun r = Importers.parse(fixture("ab-k.txt"));
        assertEquals(Tool.AB, r.tool());
        expect(r, "engine", "ab", "connections", "16", "duration_s", "2", "requests", "192172",
                "errors_connect", "0", "errors_read", "0", "errors_write", "0", "errors_status", "0",
                "errors_protocol", "0", "bytes_read", "29594488", "rps", "96085.57", "lat_mean_us", "167",
                "lat_stdev_us", "100", "lat_max_us", "3000", "lat_p50_us", "0", "lat_p99_us", "0", "threads", "");
    }

    @Test
    void abNon2xx() {
        ImportedRun r = Importers.parse(fixture("ab-non2xx.txt"));
        expect(r, "requests", "2000", "errors_status", "2000", "connections", "4");
    }

    @Test
    void everyValueIsAColumnAndNoneIsBlank() {
        for (String f : new String[] {"wrk.txt", "wrk-latency.txt", "wrk2-u-latency.txt", "oha.txt", "oha.json",
            "oha-non2xx.json", "oha-timeout.txt", "oha-timeout.json", "oha-rate.json", "hey.txt", "h2load.txt",
            "ab-k.txt"}) {
            for (Map.Entry<String, String> e : Importers.parse(fixture(f)).values().entrySet()) {
                assertFalse(e.getValue().isBlank(), f + " " + e.getKey());
            }
        }
    }
}
