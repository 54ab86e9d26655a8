package io.loadlab.load;

import static io.loadlab.load.HostileServer.Behaviour.ACCEPT_NEVER_READ;
import static io.loadlab.load.HostileServer.Behaviour.BYTE_AT_A_TIME;
import static io.loadlab.load.HostileServer.Behaviour.CONNECTION_CLOSE;
import static io.loadlab.load.HostileServer.Behaviour.ENDLESS_CHUNKED;
import static io.loadlab.load.HostileServer.Behaviour.GARBAGE_STATUS;
import static io.loadlab.load.HostileServer.Behaviour.HUGE_HEADERS;
import static io.loadlab.load.HostileServer.Behaviour.READ_NEVER_ANSWER;
import static io.loadlab.load.HostileServer.Behaviour.REFUSE_HALF;
import static io.loadlab.load.HostileServer.Behaviour.RESET_MID_RESPONSE;
import static io.loadlab.load.HostileServer.Behaviour.SHORT_BODY_THEN_CLOSE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine against each {@link HostileServer} behaviour: the run ends on time (its duration
 * plus the request timeout, with slack for a loaded machine: the bound guards a hang, it does
 * not measure speed), each failure lands in the right error category and nowhere else, and
 * afterwards no event-loop thread and no socket of the run is left. One run of 256 connections
 * for 10 s against an endless body bounds the engine's memory.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a hang guard, not a speed target
class HostileServersTest {

    private static final int CONNECTIONS = 32;
    private static final Duration RUN = Duration.ofSeconds(2);
    /** Short enough for several timeouts per connection in a run of the servers that stall. */
    private static final Duration SHORT_TIMEOUT = Duration.ofMillis(500);
    /** Where a timeout is not the point, long enough that a busy machine does not cause one. */
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Start-up, shutdown and a busy two-CPU machine; an engine that hangs overshoots by far more. */
    private static final double SLACK_S = 5;
    /** What the memory test allows the run to add to the live heap, and to Netty's direct memory. */
    private static final long MEMORY_BOUND = 64L << 20;

    /** What a run against one server gave. */
    private record Outcome(LoadResult result, double seconds, HostileServer.Counts server) {}

    @Test
    void aServerThatAcceptsAndNeverReadsGivesTimeoutsOnly() throws IOException {
        Outcome o = against(ACCEPT_NEVER_READ, HostileServersTest::stalling);
        assertTimeoutsOnly(o);
        assertTrue(o.server().accepted() > o.result().errors().timeout(),
                "each timed-out request had a connection of its own: " + o);
    }

    @Test
    void aServerThatReadsAndNeverAnswersGivesTimeoutsOnly() throws IOException {
        assertTimeoutsOnly(against(READ_NEVER_ANSWER, HostileServersTest::stalling));
    }

    @Test
    void anEndlessChunkedBodyIsATimeoutAndIsReadNotKept() throws IOException {
        Outcome o = against(ENDLESS_CHUNKED, HostileServersTest::stalling);
        assertTimeoutsOnly(o);
        assertTrue(o.result().bytesRead() > 1L << 20, "the body streamed: " + o.result().bytesRead());
    }

    @Test
    void answersOneByteAtATimeSucceed() throws IOException {
        Outcome o = against(BYTE_AT_A_TIME, b -> standard(b).connections(16));
        LoadResult r = o.result();
        assertEquals(ErrorCounts.NONE, r.errors());
        assertWithinInFlight(r.requests(), o.server().served(), 16, "answers");
        assertTrue(r.requests() > 0, o.toString());
        // 52 bytes with a pause of at least 1 ms after each: the answers really were slow.
        assertTrue(r.latency().getMinValue() >= 50_000, "fastest answer " + r.latency().getMinValue() + " us");
    }

    @Test
    void aGarbageStatusLineIsAProtocolError() throws IOException {
        Outcome o = against(GARBAGE_STATUS, HostileServersTest::standard);
        LoadResult r = o.result();
        assertEquals(0, r.requests());
        assertEquals(errors(0, 0, 0, 0, 0, r.errors().protocol()), r.errors());
        assertTrue(r.errors().protocol() > 0, o.toString());
        // One error per garbage answer: never counted twice, never credited to the next request.
        assertWithinInFlight(r.errors().protocol(), o.server().hostile(), CONNECTIONS, "garbage answers");
    }

    @Test
    void headersBeyondTheLimitAreAProtocolErrorAndAreNotReadToTheEnd() throws IOException {
        Outcome o = against(HUGE_HEADERS, HostileServersTest::standard);
        LoadResult r = o.result();
        long protocol = r.errors().protocol();
        assertEquals(0, r.requests());
        assertEquals(errors(0, 0, 0, 0, 0, protocol), r.errors());
        assertTrue(protocol > 0, o.toString());
        assertWithinInFlight(protocol, o.server().hostile(), CONNECTIONS, "oversized answers");
        // The engine gives up past 64 KiB, not after the whole 1 MiB (plus one read's worth).
        assertTrue(r.bytesRead() <= (protocol + CONNECTIONS) * (256L << 10),
                r.bytesRead() + " bytes read for " + protocol + " answers");
    }

    @Test
    void aContentLengthLongerThanTheBodyThenACloseIsAReadError() throws IOException {
        assertCutOffAnswersAreReadErrors(against(SHORT_BODY_THEN_CLOSE, HostileServersTest::standard));
    }

    @Test
    void aResetMidResponseIsAReadError() throws IOException {
        assertCutOffAnswersAreReadErrors(against(RESET_MID_RESPONSE, HostileServersTest::standard));
    }

    @Test
    void aResetWithPipelinedRequestsIsAWriteErrorOnlyForTheRequestThatCouldNotBeWritten() throws IOException {
        // Regression: a write that failed on a reset connection counted every outstanding request
        // as a write error, also those written long before. Here each connection sends four
        // requests and tops up two at a time (once half of them are answered); a reset cuts an
        // answer. When a top-up's write is what fails, four requests are lost, only its two unwritten.
        Outcome o = against(RESET_MID_RESPONSE, b -> standard(b).connections(8).model(new LoadModel.ClosedLoop(4)));
        ErrorCounts e = o.result().errors();
        long lost = e.read() + e.write();
        assertEquals(errors(0, e.read(), e.write(), 0, 0, 0), e);
        assertTrue(lost > 0, o.toString());
        assertTrue(2 * e.write() <= lost, "at most two unwritten requests per four lost: " + e);
        assertTrue(o.result().requests() > 0, o.toString());
    }

    @Test
    void connectionCloseOnEveryAnswerReconnectsWithoutErrors() throws IOException {
        Outcome o = against(CONNECTION_CLOSE, HostileServersTest::standard);
        LoadResult r = o.result();
        assertEquals(ErrorCounts.NONE, r.errors());
        assertTrue(r.requests() > CONNECTIONS, "more answers than connections: " + o);
        assertWithinInFlight(r.requests(), o.server().served(), CONNECTIONS, "answers");
        assertTrue(r.connectTime().getTotalCount() >= r.requests(),
                "a connection per answer: " + r.connectTime().getTotalCount() + " connects");
    }

    @Test
    void connectionsResetOnAcceptLoseTheirRequestAndTheRestAreServed() throws IOException {
        Outcome o = against(REFUSE_HALF, HostileServersTest::standard);
        LoadResult r = o.result();
        ErrorCounts e = r.errors();
        // Each reset costs exactly one failure, named by where the engine was: connect when the
        // reset came before the loop saw the handshake complete (connect() reports it and no
        // request was sent), write when before the request went out, read after that.
        assertEquals(errors(e.connect(), e.read(), e.write(), 0, 0, 0), e);
        assertTrue(e.read() > 0, e.toString());
        assertWithinInFlight(e.connect() + e.read() + e.write(), o.server().hostile(), CONNECTIONS,
                "reset connections");
        assertTrue(o.server().hostile() > CONNECTIONS, "resets went on through the run: " + o);
        assertWithinInFlight(r.requests(), o.server().served(), CONNECTIONS, "answers");
    }

    @Test
    void anEndlessBodyOn256ConnectionsFor10SecondsKeepsMemoryBounded() throws IOException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long heapBefore = memory.getHeapMemoryUsage().getUsed();
        long directBefore = nettyDirectMemory();
        AtomicLong heapPeak = new AtomicLong(heapBefore);
        AtomicLong directPeak = new AtomicLong(directBefore);
        LoadListener sampler = new LoadListener() {
            @Override
            public void interval(IntervalSample sample) {
                // The live heap mid-run: what the run holds on to, not garbage waiting for a GC.
                System.gc();
                heapPeak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                directPeak.accumulateAndGet(nettyDirectMemory(), Math::max);
            }
        };
        Outcome o = against(ENDLESS_CHUNKED, b -> b.connections(256).duration(Duration.ofSeconds(10))
                .requestTimeout(Duration.ofSeconds(2)), sampler);
        long heapGrowth = heapPeak.get() - heapBefore;
        long directGrowth = directPeak.get() - directBefore;
        System.out.printf(Locale.ROOT, "endless chunked body, 256 connections, 10 s: %.1f GiB read, live heap"
                        + " growth %.1f MiB (peak of one sample per second), Netty direct memory growth %.1f MiB%n",
                o.result().bytesRead() / (double) (1L << 30), heapGrowth / (double) (1 << 20),
                directGrowth / (double) (1 << 20));
        assertTimeoutsOnly(o);
        assertTrue(heapGrowth < MEMORY_BOUND, "live heap grew by " + heapGrowth + " bytes");
        assertTrue(directGrowth < MEMORY_BOUND, "Netty's direct memory grew by " + directGrowth + " bytes");
    }

    /** The load most tests use: 32 connections for 2 s, a 1 s request timeout. */
    private static LoadSpec.Builder standard(LoadSpec.Builder b) {
        return b.connections(CONNECTIONS).duration(RUN).requestTimeout(TIMEOUT);
    }

    /** The load for servers that never finish an answer: a 500 ms request timeout. */
    private static LoadSpec.Builder stalling(LoadSpec.Builder b) {
        return standard(b).requestTimeout(SHORT_TIMEOUT);
    }

    private static Outcome against(HostileServer.Behaviour behaviour, UnaryOperator<LoadSpec.Builder> load)
            throws IOException {
        return against(behaviour, load, LoadListener.NONE);
    }

    /**
     * Runs the engine (two event loops) against a fresh server, checks that the run ended within
     * its duration plus its request timeout plus {@link #SLACK_S}, and that no thread or socket
     * of the run or of the server is left.
     */
    private static Outcome against(HostileServer.Behaviour behaviour, UnaryOperator<LoadSpec.Builder> load,
                                   LoadListener listener) throws IOException {
        // Loading Netty's native transport opens a socket that stays for the life of the JVM:
        // load it before counting.
        Transport.AUTO.resolve();
        long socketsBefore = openSockets();
        HostileServer server = HostileServer.start(behaviour);
        LoadSpec spec;
        LoadResult r;
        double seconds;
        try (server) {
            spec = load.apply(LoadSpec.builder().url(server.url()).threads(2)
                    .connectTimeout(Duration.ofSeconds(2))).build();
            long t0 = System.nanoTime();
            r = NettyLoad.run(spec, listener);
            seconds = (System.nanoTime() - t0) / 1e9;
            // The server still holds its ends: count only the engine's (remote port = server's).
            awaitTrue("the engine's connections to " + behaviour + " are closed",
                    () -> socketsTo(server.port()) == 0);
            awaitTrue("no event-loop thread is left", () -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().startsWith("loadlab-load") && t.isAlive()));
        }
        awaitTrue("every socket of the run and of the server is closed", () -> openSockets() <= socketsBefore);
        double limit = spec.duration().orElseThrow().toMillis() / 1e3 + spec.requestTimeout().toMillis() / 1e3
                + SLACK_S;
        assertTrue(seconds <= limit, String.format(Locale.ROOT, "%s: the run took %.2f s, more than %.1f s",
                behaviour, seconds, limit));
        return new Outcome(r, seconds, server.counts());
    }

    private static void assertTimeoutsOnly(Outcome o) {
        LoadResult r = o.result();
        long timeouts = r.errors().timeout();
        int connections = r.spec().connections();
        assertEquals(0, r.requests(), o.toString());
        assertEquals(errors(0, 0, 0, timeouts, 0, 0), r.errors());
        // Every connection times out at least once, and no request before its timeout.
        long most = connections * (r.spec().duration().orElseThrow().toMillis() / r.spec().requestTimeout().toMillis());
        assertTrue(timeouts >= connections && timeouts <= most,
                timeouts + " timeouts, expected " + connections + " to " + most);
    }

    private static void assertCutOffAnswersAreReadErrors(Outcome o) {
        LoadResult r = o.result();
        long read = r.errors().read();
        assertEquals(errors(0, read, 0, 0, 0, 0), r.errors());
        assertTrue(read > 0 && r.requests() > 0, o.toString());
        assertWithinInFlight(read, o.server().hostile(), CONNECTIONS, "cut-off answers");
        assertWithinInFlight(r.requests(), o.server().served(), CONNECTIONS, "complete answers");
    }

    /**
     * The engine saw at most what the server did, and missed at most one per connection: the
     * request in flight when the window closed.
     */
    private static void assertWithinInFlight(long engine, long server, int connections, String what) {
        assertTrue(engine <= server && engine >= server - connections,
                String.format(Locale.ROOT, "%s: engine counted %d, server did %d", what, engine, server));
    }

    private static ErrorCounts errors(long connect, long read, long write, long timeout, long status, long protocol) {
        return new ErrorCounts(connect, read, write, timeout, status, protocol, 0);
    }

    private static long nettyDirectMemory() {
        return ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider p
                ? p.metric().usedDirectMemory() : 0;
    }

    /** Polls every 10 ms until the condition holds; fails after 10 s. */
    private static void awaitTrue(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, () -> "after 10 s, still not true: " + what + "; sockets: "
                    + describe(socketInodes()));
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Socket inodes among this JVM's file descriptors. */
    private static Set<String> socketInodes() {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        inodes.add(link.substring(8, link.length() - 1));
                    }
                } catch (IOException e) {
                    // The descriptor closed between the listing and the read: not open.
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc/self/fd", e);
        }
        return inodes;
    }

    /** The /proc/net lines of the given socket inodes, for a failure message. */
    private static String describe(Set<String> inodes) {
        StringBuilder sb = new StringBuilder();
        for (String table : List.of("tcp", "tcp6", "udp", "udp6", "unix", "netlink")) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/net", table))) {
                    for (String f : line.trim().split("\\s+")) {
                        if (inodes.contains(f)) {
                            sb.append('\n').append(table).append(": ").append(line.trim());
                        }
                    }
                }
            } catch (IOException e) {
                sb.append('\n').append(table).append(": ").append(e);
            }
        }
        return inodes.size() + " open" + sb;
    }

    private static long openSockets() {
        return socketInodes().size();
    }

    /** This JVM's TCP sockets (v4 and v6) whose remote port is {@code port}. */
    private static long socketsTo(int port) {
        Set<String> mine = socketInodes();
        long n = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException e) {
                continue; // no IPv6 here
            }
            for (String line : lines.subList(1, lines.size())) {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                String[] f = line.trim().split("\\s+");
                String remote = f[2];
                int remotePort = Integer.parseInt(remote.substring(remote.indexOf(':') + 1), 16);
                if (remotePort == port && mine.contains(f[9])) {
                    n++;
                }
            }
        }
        return n;
    }
}
