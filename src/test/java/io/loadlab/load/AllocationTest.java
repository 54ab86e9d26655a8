package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hot path allocates nothing per request: in a steady window, the bytes the event-loop threads
 * allocated ({@code ThreadMXBean.getThreadAllocatedBytes}, which the engine reads at the window's
 * start and end) divided by the answers stay below {@value #BOUND_BYTES}. What remains is per
 * window or per second, not per request (24 to 1,900 bytes a 3 s window), so the share per answer is
 * tiny. Before this test each request made a {@code duplicate()} of the request, a promise and its
 * listener, a timer task at a fixed rate, and each second's snapshot new histograms. The bound was 2
 * bytes until a method reference made at a fixed-rate window's end (its class spun there, some 20 KB)
 * read as 2.8 bytes per request.
 *
 * <p>Netty's leak detector is off for these runs, as the launcher and the kernel turn it off: it
 * records a stack trace for one buffer in 128, some 30 bytes per request here, which is a
 * debugging aid's cost, not the engine's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class AllocationTest {

    /** Bytes per answer the loops may allocate: a window's few hundred bytes, spread over its answers. */
    static final double BOUND_BYTES = 0.5;

    @Test
    void theClosedLoopAllocatesNothingPerRequest() throws IOException {
        assertAllocationFree(LoadSpec.builder().connections(8), 2);
    }

    @Test
    void pipelinedRequestsAllocateNothingPerRequest() throws IOException {
        assertAllocationFree(LoadSpec.builder().connections(4).model(new LoadModel.ClosedLoop(8)), 2);
    }

    @Test
    void aFixedRateAllocatesNothingPerRequest() throws IOException {
        // The pacer, not a Netty timer, sends each request when it is due.
        assertAllocationFree(LoadSpec.builder().connections(8).model(new LoadModel.FixedRate(4_000)), 1);
    }

    private static void assertAllocationFree(LoadSpec.Builder b, int threads) throws IOException {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try (TestHttpServer server = TestHttpServer.fixed("Hello, World!")) {
            // The fixed warm-up gives C2 time to compile the hot path: before, the interpreter and C1
            // allocate what escape analysis later removes, which is not what a steady window shows.
            LoadResult r = NettyLoad.run(b.url(server.url("/plaintext")).threads(threads)
                    .connectTimeout(Duration.ofSeconds(2)).warmup(Duration.ofSeconds(3))
                    .duration(Duration.ofSeconds(3)).build());
            assertEquals(0, r.errors().total(), r.errors().toString());
            assertTrue(r.requests() > 5_000, "enough answers to spread a snapshot's bytes over: " + r);
            double perRequest = r.loopAllocatedBytesPerRequest().orElseThrow();
            assertTrue(perRequest < BOUND_BYTES, String.format(java.util.Locale.ROOT,
                    "%.1f bytes allocated per request (%d bytes, %d requests)", perRequest,
                    r.jvm().loopAllocatedBytes(), r.requests()));
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }
}
