package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadlab.data.AgentRows;
import io.loadlab.load.ErrorCounts;
import io.loadlab.load.IntervalSample;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Warmup;
import io.loadlab.host.ProcessTreeStats;
import io.loadlab.subject.ServerSampler;
import io.loadlab.subject.ThrowawayCa;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agents' parts on their own: splitting, the wire form, merging, clocks, secrets, addresses. */
class AgentPartsTest {

    @Test
    void largestRemainderAddsUpAndGivesEachItsFloor() {
        assertArrayEquals(new long[] {1, 1, 1}, Split.largestRemainder(3, List.of(1.0, 5.0, 10.0), 1));
        assertArrayEquals(new long[] {32, 32}, Split.largestRemainder(64, List.of(2.0, 2.0), 1));
        long[] odd = Split.largestRemainder(65, List.of(1.0, 2.0), 1);
        assertEquals(65, odd[0] + odd[1]);
        assertArrayEquals(new long[] {22, 43}, odd);
    }

    @Test
    void aFixedRateIsSplitInProportionAndConnectionsByLargestRemainder() {
        LoadSpec spec = LoadSpec.builder().url("http://10.0.0.1:8080/").model(new LoadModel.FixedRate(3000))
                .connections(10).threads(4).duration(Duration.ofSeconds(2)).build();
        List<LoadSpec> shares = Split.shares(spec, List.of(1.0, 2.0));
        assertEquals(1000, ((LoadModel.FixedRate) shares.get(0).model()).requestsPerSecond(), 1e-9);
        assertEquals(2000, ((LoadModel.FixedRate) shares.get(1).model()).requestsPerSecond(), 1e-9);
        assertEquals(10, shares.get(0).connections() + shares.get(1).connections());
        assertEquals(4, shares.get(1).threads());
        assertNotEquals(shares.get(0).seed(), shares.get(1).seed(), "agents draw different keys");
        AgentException e = assertThrows(AgentException.class, () -> Split.shares(
                LoadSpec.builder().url("http://10.0.0.1/").connections(1).build(), List.of(1.0, 1.0)));
        assertTrue(e.getMessage().contains("-c 2"), e.getMessage());
    }

    @Test
    void aSteadyWarmupRunsOnTheAgentsAsNoneForTheLongestWarmupPlusTheWindow() {
        LoadSpec spec = LoadSpec.builder().url("http://10.0.0.1/").duration(Duration.ofMillis(2500))
                .warmup(new Warmup.Steady(Duration.ofSeconds(2), Duration.ofSeconds(5))).build();
        Split.Phases p = Split.Phases.of(spec);
        assertTrue(p.perAgent().warmup().isNone());
        assertEquals(Duration.ofSeconds(8), p.perAgent().duration().orElseThrow());
        assertEquals(3, p.windowS());
        Split.Phases fixed = Split.Phases.of(spec.toBuilder().warmup(Duration.ofSeconds(1)).build());
        assertEquals(1000, fixed.fixedWarmupMs());
        assertTrue(fixed.steady().isEmpty());
    }

    @Test
    void theAgentsEngineSpeaksPlainHttp11OnlyAndRefusesTheRestBeforeContactingAnAgent() {
        AgentEngine engine = new AgentEngine(AgentSet.parse("127.0.0.1:1", Path.of("/nonexistent/secret")));
        assertEquals(Optional.empty(), engine.cannotSpeak(io.loadlab.load.Protocol.HTTP_1_1, false));
        assertEquals(Optional.of("agents run plain HTTP/1.1 only, not HTTP/1.1 over TLS"),
                engine.cannotSpeak(io.loadlab.load.Protocol.HTTP_1_1, true));
        assertEquals(Optional.of("agents run plain HTTP/1.1 only, not h2"),
                engine.cannotSpeak(io.loadlab.load.Protocol.H2, true));
        LoadSpec h2c = LoadSpec.builder().url("http://127.0.0.1:1/").protocol(io.loadlab.load.Protocol.H2C).build();
        io.loadlab.engine.EngineException e = assertThrows(io.loadlab.engine.EngineException.class,
                () -> engine.run(io.loadlab.engine.RunSpec.inProcess(h2c), io.loadlab.load.LoadListener.NONE));
        assertEquals("agents run plain HTTP/1.1 only, not h2c", e.getMessage());
    }

    /** agents.csv's columns are AgentRows.Column's, filled here and written by the store in the header's order. */
    @Test
    void anAgentsPartFillsTheColumnsOfAgentsCsvThatTheStoreWrites() {
        AgentOutcome a = new AgentOutcome(HostPort.parse("10.0.0.2:5701"), 2, 32, 4, OptionalDouble.of(1500), 30_000,
                1500.25, new ErrorCounts(1, 0, 0, 2, 0, 0), 1.5, false, OptionalDouble.of(0.04), -120, 80, 3, "ok",
                Optional.empty(), List.of());
        io.loadlab.engine.EngineResult.Part part = AgentEngine.part(a);
        assertEquals("10.0.0.2:5701", part.name());
        assertEquals(java.util.Set.of("agent", "weight", "connections", "threads", "target_rps", "requests", "rps",
                "errors", "load_cpu_s", "load_bound", "steal_s", "clock_offset_us", "clock_rtt_us", "start_lag_ms", "status",
                "error"), part.values().keySet());
        assertEquals("experiment,run_id,agent,weight,connections,threads,target_rps,requests,rps,errors,load_cpu_s,"
                + "load_bound,clock_offset_us,clock_rtt_us,start_lag_ms,status,error,steal_s", AgentRows.header());
        assertEquals("exp,7,10.0.0.2:5701,2.000,32,4,1500.000,30000,1500.250,3,1.500,false,-120,80,3,ok,,0.040",
                AgentRows.line("exp", "7", part.values()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentRows.line("exp", "7", Map.of("clock_rtt_ms", "80")));
        assertTrue(e.getMessage().contains("'clock_rtt_ms'"), e.getMessage());
    }

    @Test
    void anIntervalCrossesTheWireWithEveryBucket() {
        Histogram h = histogram(7, 5000);
        Message.Interval m = new Message.Interval(3, 1000, 2000, 5000, 2, new ErrorCounts(1, 2, 3, 4, 5, 6), 77, 9, 11, h,
                Optional.of(histogram(8, 100)), OptionalDouble.of(0.02));
        Message.Interval back = (Message.Interval) Wire.decode(Wire.encode(m));
        assertEquals(h, back.latency());
        assertEquals(m.errors(), back.errors());
        assertEquals(m.service().get(), back.service().get());
        assertEquals(11, back.processCpuNanos());
        assertEquals(0.02, back.stealSeconds().getAsDouble());
        String text = Wire.encode(m);
        assertTrue(text.contains("\"steal_s\":0.02"), text);
        Message.Interval older = (Message.Interval) Wire.decode(text.replace(",\"steal_s\":0.02", ""));
        assertTrue(older.stealSeconds().isEmpty(), "an agent that does not say its steal: not measured");
        assertEquals(4505.0, ((Message.Interval) Wire.decode(text.replace("\"steal_s\":0.02", "\"steal_s\":4505")))
                .stealSeconds().getAsDouble(), "4,096 CPUs over a second, and a tick: the most believed");
        for (String bad : List.of("-0.5", "\"0.1\"", "1e400", "4506")) {
            AgentException refused = assertThrows(AgentException.class,
                    () -> Wire.decode(text.replace("\"steal_s\":0.02", "\"steal_s\":" + bad)), bad);
            assertTrue(refused.getMessage().contains("steal_s must be a number of seconds from 0 to 4506 (4096 CPUs"),
                    refused.getMessage());
        }
        AgentException e = assertThrows(AgentException.class, () -> Wire.decode("{\"type\":\"other\"}"));
        assertTrue(e.getMessage().contains("same Loadlab version"), e.getMessage());
    }

    @Test
    void theSubjectMessagesCrossTheWireWithTheirFigures() {
        Message.Launch l = new Message.Launch("s1", "r1", "c1", "python-asyncio", Map.of("durability", "fsync"), 60_000,
                Optional.empty());
        assertEquals(l, Wire.decode(Wire.encode(l)));
        Message.Pem pem = new Message.Pem("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
                "-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n");
        Message.Launch tls = new Message.Launch("s2", "r2", "c2", "nginx", Map.of("protocol", "h1-tls"), 60_000,
                Optional.of(pem));
        assertEquals(tls, Wire.decode(Wire.encode(tls)));
        assertFalse(pem.toString().contains("MIGH"), "a message's text never shows the key: " + pem);
        assertEquals(new Message.Sample("s1", Message.Sample.END),
                Wire.decode(Wire.encode(new Message.Sample("s1", Message.Sample.END))));
        assertEquals(new Message.Halt("s1"), Wire.decode(Wire.encode(new Message.Halt("s1"))));
        assertEquals(new Message.Launched("10.0.0.9", 4321, 777), Wire.decode(Wire.encode(new Message.Launched("10.0.0.9",
                4321, 777))));
        ServerSampler.Window w = new ServerSampler.Window(Optional.of(new ProcessTreeStats.Reading(1.25, 0.5, 3 << 20,
                5 << 20)), OptionalDouble.of(0.125), OptionalDouble.empty());
        Message.Sampled ended = new Message.Sampled(false, Optional.of(3), w, "Traceback\nboom");
        assertEquals(ended, Wire.decode(Wire.encode(ended)));
        Message.Sampled none = new Message.Sampled(true, Optional.empty(), ServerSampler.Window.NONE, "");
        assertEquals(none, Wire.decode(Wire.encode(none)));
        assertEquals(new Message.Unready("no"), Wire.decode(Wire.encode(new Message.Unready("no"))));
        assertEquals(new Message.Halted(777), Wire.decode(Wire.encode(new Message.Halted(777))));
    }

    @Test
    void aRemoteSubjectsCertificateIsWrittenForItsUserAloneAndDeletedWithIt(@TempDir Path scratch) throws Exception {
        Path dir = scratch.resolve("tls-s1");
        Message.Pem pem = new Message.Pem("cert text\n", "key text\n");
        ThrowawayCa.ServerFiles f = ScratchCertificate.write(dir, pem);
        assertEquals("key text\n", Files.readString(f.key()));
        assertEquals("cert text\n", Files.readString(f.cert()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f.key())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals(Optional.empty(), ScratchCertificate.delete(dir));
        assertFalse(Files.exists(dir), "the folder and both files are gone");
        assertEquals(Optional.empty(), ScratchCertificate.delete(dir), "deleting again is nothing to do");
    }

    @Test
    void aSubjectHostsCertificateNamesItsAddressAsClientsCheckIt() {
        assertEquals("IP:10.0.0.9", ThrowawayCa.altName("10.0.0.9"));
        assertEquals("IP:fd00::9", ThrowawayCa.altName("fd00::9"));
        assertEquals("DNS:subjects.lab", ThrowawayCa.altName("subjects.lab"));
        assertEquals("DNS:10.0.0.9.nip.io", ThrowawayCa.altName("10.0.0.9.nip.io"));
    }

    @Test
    void anAgentsStealIsItsWindowsSumWhenEveryIntervalSaysItAndItsCpusHadThatMuch() {
        Merger m = new Merger(new double[] {0, 0, 0});
        double[][] said = {{0.5, 0.01, 0.02, 0.03}, {0.01, -1, 0.01, 0.01}, {0.01, 0.01, 0.01, 2.5}};
        for (int i = 0; i < 4; i++) {
            for (int a = 0; a < 3; a++) {
                Histogram h = histogram(i, 10);
                double s = said[a][i];
                m.add(a, new Message.Interval(i, 1000L * i, 1000L * i + 1000, 1, 0, ErrorCounts.NONE, 10, 0, 0, h,
                        Optional.empty(), s < 0 ? OptionalDouble.empty() : OptionalDouble.of(s)));
            }
        }
        assertEquals(0.06, Outcomes.steal(m, 0, 1, 4).getAsDouble(), 1e-9, "the window's intervals only");
        assertTrue(Outcomes.steal(m, 1, 1, 4).isEmpty(), "an interval that did not say: not measured");
        assertEquals(2.52, Outcomes.steal(m, 2, 1, 4).getAsDouble(), 1e-9);
        assertTrue(Outcomes.steal(m, 0, 4, 4).isEmpty(), "no interval in the window");

        AgentOutcome one = outcomeWithSteal("10.0.0.2:1", OptionalDouble.of(0.06));
        AgentOutcome two = outcomeWithSteal("10.0.0.3:1", OptionalDouble.of(0.5));
        AgentOutcome unknown = outcomeWithSteal("10.0.0.4:1", OptionalDouble.empty());
        AgentOutcome absent = AgentOutcome.absent(HostPort.parse("10.0.0.5:1"), "unreachable", "no route");
        assertEquals(0.56, Outcomes.steal(List.of(one, two, absent)).getAsDouble(), 1e-9, "the agents that ran, summed");
        assertTrue(Outcomes.steal(List.of(one, unknown)).isEmpty(), "one agent did not say: the run's is unknown");
    }

    private static AgentOutcome outcomeWithSteal(String address, OptionalDouble steal) {
        IntervalSample s = new IntervalSample(0, 1000, 1, 0, ErrorCounts.NONE, 10, histogram(1, 10), Optional.empty());
        return new AgentOutcome(HostPort.parse(address), 1, 4, 1, OptionalDouble.empty(), 1, 1, ErrorCounts.NONE, 0.1,
                false, steal, 0, 100, 5, "ok", Optional.empty(), List.of(s));
    }

    @Test
    void mergedIntervalsHoldTheSumOfTheAgentsOwnHistograms() {
        Merger m = new Merger(new double[] {0, 250.0});
        Histogram oracle = new Histogram(1, 3_600_000_000L, 3);
        for (int i = 0; i < 3; i++) {
            for (int a = 0; a < 2; a++) {
                Histogram h = histogram(i * 2 + a, 1000 + a);
                oracle.add(h);
                long start = 10_000 + i * 1000L + (a == 1 ? 250 : 0);
                m.add(a, new Message.Interval(i, start, start + 1000, h.getTotalCount(), 0, ErrorCounts.NONE, 10, 0, 0, h,
                        Optional.empty(), OptionalDouble.empty()));
            }
        }
        assertTrue(m.complete(2));
        assertTrue(!m.complete(3), "an agent still running may send interval 3");
        Histogram merged = new Histogram(1, 3_600_000_000L, 3);
        long requests = 0;
        for (int i = 0; i < 3; i++) {
            IntervalSample s = m.merged(i);
            assertEquals(10_000 + i * 1000L, s.startEpochMs(), "the agent's clock offset is taken off");
            assertEquals(1.0, s.seconds(), 1e-9);
            merged.add(s.latency());
            requests += s.requests();
        }
        assertEquals(oracle, merged);
        assertEquals(oracle.getTotalCount(), requests);
        m.ended(0);
        assertEquals(List.of(1), m.missing(3));
    }

    @Test
    void theClockOffsetComesFromTheShortestRoundTrip() {
        ClockOffset c = ClockOffset.of(List.of(new ClockOffset.Probe(0, 10, 1005), new ClockOffset.Probe(20, 22, 1021),
                new ClockOffset.Probe(30, 36, 1033)));
        assertEquals(1000, c.offsetMs(), 1e-9);
        assertEquals(2, c.rttMs(), 1e-9);
        assertEquals(1_000_000, c.offsetUs());
    }

    @Test
    void theClusterNameComesFromTheSecretAndAShortSecretIsRefused(@TempDir Path dir) throws Exception {
        assertEquals(Secret.of("a secret of enough length").clusterName(), Secret.of("a secret of enough length").clusterName());
        assertNotEquals(Secret.of("a secret of enough length").clusterName(), Secret.of("another secret, as long").clusterName());
        assertTrue(Secret.of("a secret of enough length").clusterName().matches("loadlab-[0-9a-f]{24}"));
        Path shortOne = TestSecrets.write(dir.resolve("s"), "short\n");
        AgentException e = assertThrows(AgentException.class, () -> Secret.read(shortOne));
        assertTrue(e.getMessage().contains("at least 16"), e.getMessage());
        AgentException missing = assertThrows(AgentException.class, () -> Secret.read(dir.resolve("none")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        assertTrue(!Secret.of("a secret of enough length").toString().contains("secret of"));
    }

    /** As ssh does for keys: a secret that group or others may read is refused, with the chmod that fixes it. */
    @Test
    void aSecretFileOthersCanReadIsRefusedWithTheChmodToRun(@TempDir Path dir) throws Exception {
        Path open = Files.writeString(dir.resolve("open"), "a secret of enough length\n");
        for (String mode : List.of("rw-r--r--", "rw-rw----", "rw-----w-")) {
            Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
            AgentException e = assertThrows(AgentException.class, () -> Secret.read(open), mode);
            assertTrue(e.getMessage().contains("chmod 600 " + open), e.getMessage());
            assertTrue(e.getMessage().contains(mode), e.getMessage());
        }
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        assertEquals(Secret.of("a secret of enough length").clusterName(), Secret.read(open).clusterName());
    }

    /** The cluster name admits whoever presents it: the agent's log must not show it. */
    @Test
    void theAgentsLogDoesNotShowTheClusterName(@TempDir Path dir) throws Exception {
        Secret secret = Secret.read(TestSecrets.write(dir.resolve("secret"), "a secret of enough length\n"));
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        Agent a = Agent.start(new HostPort("127.0.0.1", io.loadlab.subject.SubjectProcess.freePort()), secret,
                new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8), Optional.empty(),
                Optional.empty());
        try {
            String text = log.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(text.contains("listening on 127.0.0.1:"), text);
            assertFalse(text.contains(secret.clusterName()), text);
        } finally {
            a.close();
        }
    }

    @Test
    void addressesAreHostPortAndEachOnce() {
        assertEquals(new HostPort("10.0.0.2", 5701), HostPort.parse("10.0.0.2:5701"));
        assertEquals(new HostPort("::1", 5701), HostPort.parse("[::1]:5701"));
        assertEquals("[::1]:5701", HostPort.parse("[::1]:5701").toString());
        assertThrows(AgentException.class, () -> HostPort.parse("10.0.0.2"));
        assertThrows(AgentException.class, () -> HostPort.parse("10.0.0.2:x"));
        AgentException twice = assertThrows(AgentException.class, () -> HostPort.list("a:1,a:1"));
        assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
    }

    @Test
    void theRunIsLoadBoundWhenOneAgentIsThoughThePooledCpusAreNot() {
        AgentOutcome bound = outcome("10.0.0.2:5701", true);
        AgentOutcome idle = outcome("10.0.0.3:5701", false);
        assertTrue(new RemoteResult("ok", Optional.empty(), Optional.empty(), List.of(idle, bound)).loadBound());
        assertFalse(new RemoteResult("ok", Optional.empty(), Optional.empty(), List.of(idle, idle)).loadBound());
    }

    private static AgentOutcome outcome(String address, boolean loadBound) {
        return new AgentOutcome(HostPort.parse(address), 1, 4, 1, java.util.OptionalDouble.empty(), 1000, 500,
                ErrorCounts.NONE, loadBound ? 1.9 : 0.2, loadBound, OptionalDouble.empty(), 0, 100, 5, "ok", Optional.empty(),
                List.of());
    }

    private static Histogram histogram(long seed, int n) {
        Histogram h = new Histogram(1, 3_600_000_000L, 3);
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            h.recordValue(1 + (long) Math.exp(r.nextDouble() * 12));
        }
        return h;
    }
}
