package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.load.summary.JsonSummary;
import io.loadlab.load.summary.TextSummary;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The hypervisor's steal over the window comes from the run's listener, asked once the window has
 * ended, and the summaries print it; a run whose listener measures none says so ({@code null}, no line).
 */
class StealReportTest {

    private static LoadSpec spec(String url) {
        return LoadSpec.builder().url(url).connections(2).threads(1).warmup(Duration.ofMillis(200))
                .duration(Duration.ofMillis(300)).connectTimeout(Duration.ofSeconds(2)).build();
    }

    @Test
    void theListenersStealIsAskedAfterTheWindowAndReported() throws IOException {
        List<String> calls = new ArrayList<>();
        LoadListener listener = new LoadListener() {
            @Override
            public void windowStarted() {
                calls.add("start");
            }

            @Override
            public void windowEnded() {
                calls.add("end");
            }

            @Override
            public OptionalDouble stealSeconds() {
                calls.add("steal");
                return OptionalDouble.of(0.25);
            }
        };
        try (TestHttpServer server = TestHttpServer.fixed("k")) {
            LoadResult r = NettyLoad.run(spec(server.url("/")), listener);
            assertEquals(List.of("start", "end", "steal"), calls, "asked once, after the window ended");
            assertEquals(0.25, r.stealSeconds().orElseThrow(), 1e-12);
            assertTrue(JsonSummary.format(r).contains("\"steal_s\" : 0.25"), JsonSummary.format(r));
            assertTrue(TextSummary.format(r).contains("Steal         0.25s"), TextSummary.format(r));
        }
    }

    @Test
    void withoutAMeasurementThereIsNoFigure() throws IOException {
        try (TestHttpServer server = TestHttpServer.fixed("k")) {
            LoadResult r = NettyLoad.run(spec(server.url("/")), LoadListener.NONE);
            assertTrue(r.stealSeconds().isEmpty());
            assertTrue(JsonSummary.format(r).contains("\"steal_s\" : null"), JsonSummary.format(r));
            assertFalse(TextSummary.format(r).contains("Steal "), TextSummary.format(r));
        }
    }
}
