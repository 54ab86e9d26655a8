package io.loadlab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine over h2c against a Netty h2c server in this JVM ({@link H2TestServer}), whose own counts
 * the engine's must equal: every stream's status, RST_STREAM, GOAWAY in the middle of a run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class H2EngineTest {

    private static LoadSpec.Builder h2c(H2TestServer s, String path, int connections, int streams) {
        return LoadSpec.builder().url(s.url(path)).protocol(Protocol.H2C).streams(streams)
                .connections(connections).threads(Math.min(2, connections));
    }

    @Test
    void everyStreamIsCountedWithTheStatusTheServerSent() throws Exception {
        try (H2TestServer s = H2TestServer.start()) {
            LoadResult r = NettyLoad.run(h2c(s, "/s/{rand:200-204}", 4, 8).requests(2000)
                    .expect(new Expectation(java.util.Set.of(200, 201, 202, 203, 204), java.util.OptionalLong.of(2)))
                    .build());
            assertEquals(2000, r.requests());
            assertEquals(2000, s.answered.get());
            assertEquals(s.statuses(), new TreeMap<>(r.statusCodes()), "each stream's status as the server sent it");
            assertEquals(5, r.statusCodes().size(), "the keys drew every status: " + r.statusCodes());
            assertEquals(ErrorCounts.NONE, r.errors());
            assertEquals(new H2Summary(8, 0, 0, 0), r.h2().orElseThrow());
            assertEquals(4, s.servedConnections.get());
            assertEquals(Protocol.H2C, r.protocol());
            assertTrue(r.tls().isEmpty());
            assertEquals(2000, r.latency().getTotalCount());
        }
    }

    @Test
    void anAnswersLatencyRunsFromItsSendToTheReadThatBroughtIt() throws Exception {
        // Each answer leaves the server 20 ms after its request came: none can be timed shorter, and
        // none longer than the whole run. An answer timed by an old read's clock would be shorter.
        try (H2TestServer s = H2TestServer.start()) {
            long began = System.nanoTime();
            LoadResult r = NettyLoad.run(h2c(s, "/d/20", 1, 4).requests(40).build());
            long wallUs = (System.nanoTime() - began) / 1000;
            assertEquals(40, r.latency().getTotalCount());
            assertTrue(r.latency().getMinValue() >= 20_000, "min " + r.latency().getMinValue() + " us");
            assertTrue(r.latency().getMaxValue() <= wallUs, "max " + r.latency().getMaxValue() + " us of " + wallUs);
        }
    }

    @Test
    void aServerWithASmallHeaderTableGetsEveryRequestDecoded() throws Exception {
        // The request encoder must signal the smaller table before its next block (RFC 7541 section
        // 4.2) and keep its entries within it: 0 holds none, 60 not the authority's.
        for (long tableBytes : new long[] {0, 60}) {
            try (H2TestServer s = H2TestServer.withHeaderTable(tableBytes)) {
                LoadResult r = NettyLoad.run(h2c(s, "/s/{rand:200-202}", 2, 4).requests(600).build());
                assertEquals(ErrorCounts.NONE, r.errors(), "table " + tableBytes + ": " + r.errors());
                assertEquals(600, s.answered.get());
                assertEquals(s.statuses(), new TreeMap<>(r.statusCodes()));
            }
        }
    }

    @Test
    void statusErrorsAreCountedPerStream() throws Exception {
        try (H2TestServer s = H2TestServer.start()) {
            LoadResult r = NettyLoad.run(h2c(s, "/s/503", 2, 5).requests(500).build());
            assertEquals(Map.of(503, 500L), r.statusCodes());
            assertEquals(500, r.errors().status());
            assertEquals(500, r.errors().total());
        }
    }

    @Test
    void resetStreamsAreCountedAsReadErrorsAndTheConnectionCarriesOn() throws Exception {
        try (H2TestServer s = H2TestServer.start()) {
            LoadResult r = NettyLoad.run(h2c(s, "/rst", 2, 4).requests(400).build());
            assertEquals(400, s.resets.get());
            assertEquals(400, r.h2().orElseThrow().rstStream(), r.errors() + " " + r.h2() + " " + r.requests());
            assertEquals(400, r.errors().read());
            assertEquals(400, r.errors().total());
            assertEquals(0, r.requests());
            // A reset costing its connection would bring a third; one connection may have carried all 400
            // before the second's first request arrived.
            long served = s.servedConnections.get();
            assertTrue(served >= 1 && served <= 2, served + " connections carried requests: the resets cost some");
        }
    }

    @Test
    void goawayLosesTheStreamsAboveItsLastAndTheRunGoesOnOverNewConnections() throws Exception {
        try (H2TestServer s = H2TestServer.goawayAfter(50)) {
            LoadResult r = NettyLoad.run(h2c(s, "/s/200", 2, 10).requests(3000).build());
            long goaways = s.goaways.get();
            // Each connection answers 50, then leaves; the two open at the end answered fewer.
            assertTrue(r.requests() >= 50 * goaways && r.requests() < 50 * (goaways + 2),
                    r.requests() + " answers, " + goaways + " GOAWAYs");
            // The last GOAWAY may leave the server after the run settled its final request, uncounted.
            long counted = r.h2().orElseThrow().goaway();
            assertTrue(counted == goaways || counted == goaways - 1, counted + " GOAWAYs counted, " + goaways + " sent");
            assertEquals(s.answered.get(), r.requests(), "every answer the server sent was counted");
            assertEquals(3000, r.requests() + r.errors().read(), "each request answered or lost");
            assertTrue(r.errors().read() > 0, "streams were in flight above each GOAWAY's last one");
            assertEquals(r.errors().read(), r.errors().total(), r.errors().toString());
            assertTrue(s.servedConnections.get() >= goaways, "a new connection after each GOAWAY");
        }
    }

    @Test
    void fixedRateKeepsOneScheduleAndOneRequestInFlightPerStream() throws Exception {
        try (H2TestServer s = H2TestServer.start()) {
            LoadResult r = NettyLoad.run(h2c(s, "/s/200", 2, 4).model(new LoadModel.FixedRate(2000))
                    .requests(400).build());
            assertEquals(400, r.requests());
            assertEquals(400, r.serviceTime().orElseThrow().getTotalCount());
            assertEquals(400, r.latency().getTotalCount());
            assertEquals(ErrorCounts.NONE, r.errors());
        }
    }

    @Test
    void onACoarseGridAConnectionsDueStreamsGoOutTogetherAndAllAreAnswered() throws Exception {
        // 2,000/s over 8 streams: each stream every 4 ms, each connection every 1 ms. A 20 ms slack
        // holds about 20 of a connection's requests to one grid point, written at the pass's end: if
        // that flush were lost they would never reach the server.
        try (H2TestServer s = H2TestServer.start()) {
            LoadResult r = NettyLoad.run(h2c(s, "/s/200", 2, 4)
                    .model(new LoadModel.FixedRate(2000, Duration.ofMillis(20))).requests(400).build());
            assertEquals(400, r.requests());
            assertEquals(400, s.answered.get());
            assertEquals(0, r.pacing().orElseThrow().sentEarly());
            assertEquals(ErrorCounts.NONE, r.errors());
        }
    }

    @Test
    void aServerWithoutH2cFailsThePreflightWithWhatToDo() throws Exception {
        try (TestHttpServer plain = TestHttpServer.fixed("hello")) {
            LoadException e = assertThrows(LoadException.class, () -> NettyLoad.run(LoadSpec.builder()
                    .url("http://127.0.0.1:" + plain.port() + "/").protocol(Protocol.H2C)
                    .connectTimeout(Duration.ofSeconds(2)).requests(10).build()));
            assertTrue(e.getMessage().contains("does not serve h2c") && e.getMessage().contains("drop --h2c"),
                    e.getMessage());
        }
    }
}
