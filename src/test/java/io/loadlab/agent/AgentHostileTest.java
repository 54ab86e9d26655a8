package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.sun.net.httpserver.HttpServer;
import io.loadlab.engine.EngineResult;
import io.loadlab.engine.RunSpec;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.PrintStream;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent with {@code --allow-subjects} on loopback, attacked by a peer that knows only the cluster
 * name (which Hazelcast sends in clear): unsealed orders, a proof made with another secret, a sealed
 * order replayed or altered; none is run or answered. Then by a peer that holds the secret (so it
 * completes the handshake): a shell in a variant value, a {@code ../} session, items that are not JSON
 * text (one a Java-serialization gadget), bad JSON, a bogus transport and loads over the caps. Nothing
 * runs, nothing outside the agent's scratch folder is touched, every order with a valid session is
 * refused in one line, and the agent then serves a real coordinator's run and subject. Before the
 * fixes the shell ran, the gadget ran, the {@code ../} folder was deleted, and the first bad item ended
 * the agent's loop.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AgentHostileTest {

    private static final Duration ANSWER = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private Path home;
    private Path secretFile;
    private HttpServer server;
    private final AtomicLong served = new AtomicLong();
    private Agent agent;
    private Thread serving;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    /** A class whose deserialization creates a file: what a gadget chain would do, in one step. */
    static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String marker;

        Gadget(String marker) {
            this.marker = marker;
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            Files.writeString(Path.of(marker), "deserialized");
        }
    }

    @BeforeEach
    void start() throws IOException {
        home = dir.resolve("home");
        Path subject = Files.createDirectories(home.resolve("subjects/demo"));
        Files.writeString(subject.resolve("subject.yaml"), """
                name: demo
                description: answers every GET with ok
                language: Python
                requires: [python3]
                start: "python3 server.py {port} {mode}"
                ready: {path: /plaintext, timeout: 20s}
                workloads: [plaintext]
                variants: {mode: [memory, fsync]}
                """);
        Files.writeString(subject.resolve("server.py"), """
                import http.server, sys
                class H(http.server.BaseHTTPRequestHandler):
                    def do_GET(self):
                        body = b"ok " + sys.argv[2].encode()
                        self.send_response(200)
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    def log_message(self, *a):
                        pass
                http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
                """);
        Files.createDirectories(home.resolve("target/victim"));
        Files.writeString(home.resolve("target/victim/keep.txt"), "outside the agent's scratch folder");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/", x -> {
            served.incrementAndGet();
            byte[] b = "Hello".getBytes(StandardCharsets.US_ASCII);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.start();
        secretFile = TestSecrets.write(dir.resolve("secret"), "the hostile test's shared secret\n");
        agent = Agent.start(new HostPort("127.0.0.1", freePort()), Secret.read(secretFile),
                new PrintStream(log, true, StandardCharsets.UTF_8), Optional.empty(), Optional.of(home));
        serving = new Thread(agent::serve, "test-hostile-agent");
        serving.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        try {
            agent.close();
            serving.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(serving.isAlive(), "the agent still serves after close");
        } finally {
            server.stop(0);
            ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
        }
    }

    /** Before: the agent ran whatever a client with the (sniffable) cluster name put into its inbox. */
    @Test
    void aPeerWithOnlyTheClusterNameGetsNoOrderRunOrAnswered() throws Exception {
        attack((peer, me) -> {
            ObjectNode load = SpecCodec.toJson(LoadSpec.builder().url(url()).connections(2).requests(10).build());
            List<String> sessions = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                    UUID.randomUUID().toString());
            IQueue<String> inbox = peer.getQueue(Cluster.INBOX);
            inbox.offer(Wire.encode(new Message.Ping(sessions.get(0), Cluster.REPLIES + sessions.get(0), me, 1)));
            inbox.offer(Wire.encode(prepare(me, load, 60_000).apply(sessions.get(1))));
            inbox.offer(Wire.encode(launch(me, "mode", "memory").apply(sessions.get(2))));
            sync(peer, me);
            for (String session : sessions) {
                assertEquals(null, peer.getQueue(Cluster.REPLIES + session).poll(), "the agent answered " + session);
            }
            assertEquals(3, count("is not sealed: orders are read only in a session whose coordinator proved"), log());
            // Checked before attack's own real run and subject, which do all of this.
            assertFalse(log().contains("loadlab agent: run "), log());
            assertFalse(log().contains("subject demo started"), log());
            assertFalse(Files.exists(home.resolve("target/agent-subjects")), "an unsealed launch reached the subjects");
        });
    }

    /** The handshake's answer proves nothing to the agent: a proof, and then orders, under another secret are refused. */
    @Test
    void aPeerWithAnotherSecretCannotProveItselfNorSealAnOrder() throws Exception {
        attack((peer, me) -> {
            Secret wrong = Secret.of("not the agents' secret, though long enough");
            String session = UUID.randomUUID().toString();
            byte[] nonceC = Handshake.nonce();
            peer.<String>getQueue(Cluster.INBOX).offer(Handshake.hello(session, me, nonceC));
            IQueue<String> replies = peer.getQueue(Cluster.REPLIES + session);
            JsonNode hello = new ObjectMapper().readTree(replies.poll(ANSWER.toMillis(), TimeUnit.MILLISECONDS));
            byte[] nonceA = Handshake.bytes(hello, "nonce");
            peer.<String>getQueue(Cluster.INBOX).offer(Handshake.proof(session, Handshake.mac(wrong, "coordinator",
                    session, nonceC, nonceA)));
            Envelope forged = new Envelope(Handshake.mac(wrong, "session", session, nonceC, nonceA), session,
                    Envelope.Direction.TO_AGENT);
            peer.<String>getQueue(Cluster.INBOX).offer(forged.seal(Wire.encode(new Message.Ping(session,
                    Cluster.REPLIES + session, me, 1))));
            sync(peer, me);
            assertEquals(null, replies.poll(), "the agent answered an order sealed with another secret");
            assertEquals(1, count("proof of session " + session + " refused: the coordinator does not hold"), log());
            assertEquals(1, count("a sealed message of session " + session + " refused: no coordinator proved"), log());
        });
    }

    /** A sniffed sealed order, sent again or with one byte changed, is refused; the session goes on. */
    @Test
    void aSealedOrderReplayedOrAlteredIsRefused() throws Exception {
        attack((peer, me) -> {
            Envelope e = Handshake.coordinator(peer, Secret.read(secretFile), UUID.randomUUID().toString(),
                    agent.listen(), ANSWER);
            String session = e.session();
            IQueue<String> inbox = peer.getQueue(Cluster.INBOX);
            IQueue<String> replies = peer.getQueue(Cluster.REPLIES + session);
            String ping = e.seal(Wire.encode(new Message.Ping(session, Cluster.REPLIES + session, me, 1)));
            inbox.offer(ping);
            assertEquals(1, ((Message.Pong) open(e, replies)).seq());
            inbox.offer(ping);
            ObjectNode altered = (ObjectNode) new ObjectMapper().readTree(e.seal(Wire.encode(launch(me, "mode", "memory")
                    .apply(session))));
            byte[] box = Base64.getDecoder().decode(altered.get("box").asText());
            box[box.length / 2] ^= 1;
            inbox.offer(altered.put("box", Base64.getEncoder().encodeToString(box)).toString());
            inbox.offer(e.seal(Wire.encode(new Message.Ping(session, Cluster.REPLIES + session, me, 3))));
            // Answers come in order: had the replay or the altered launch been taken, its answer would come first.
            assertEquals(3, ((Message.Pong) open(e, replies)).seq(), log());
            assertEquals(1, count("of session " + session + " was replayed (counter 1, last accepted 1)"), log());
            assertEquals(1, count("of session " + session + " failed to authenticate"), log());
            assertFalse(log().contains("subject demo started"), log());
        });
    }

    @Test
    void aShellInAVariantValueIsRefusedBeforeAnythingRuns() throws Exception {
        Path pwned = dir.resolve("pwned");
        Path pwned2 = dir.resolve("pwned2");
        attack((peer, me) -> {
            assertTrue(refusal(peer, launch(me, "mode", "memory; touch " + pwned + "; #"))
                    .startsWith("subject 'demo' has no mode 'memory; touch "), log());
            assertTrue(refusal(peer, launch(me, "mode", "$(touch " + pwned2 + ")"))
                    .startsWith("subject 'demo' has no mode '$(touch "), log());
            assertTrue(refusal(peer, launch(me, "cmd", "memory")).startsWith("subject 'demo' has no variant 'cmd'"),
                    log());
        });
        assertFalse(Files.exists(pwned), "a shell in a variant value ran");
        assertFalse(Files.exists(pwned2), "a command substitution in a variant value ran");
    }

    /** Before: the session became part of the scratch paths, and the folder work-SESSION was deleted at the stop. */
    @Test
    void aSessionThatLeavesTheScratchFolderTouchesNothing() throws Exception {
        List<Path> outside = outsideScratch();
        attack((peer, me) -> {
            Envelope e = handshake(peer);
            peer.getQueue(Cluster.INBOX).offer(e.seal(Wire.encode(new Message.Launch("x/../../../victim",
                    Cluster.REPLIES + "x", me, "demo", Map.of("mode", "memory"), 20_000, Optional.empty()))));
            sync(peer, me);
        });
        agent.close(); // stops whatever it still has, so that nothing it does later escapes the check below
        assertEquals(outside, outsideScratch(), "files outside the agent's scratch folder changed");
        assertTrue(log().contains("refused an order: session 'x/../../../victim' is not a UUID"), log());
    }

    @Test
    void itemsThatAreNotOrdersAreLoggedAndTheAgentGoesOn() throws Exception {
        Path gadget = dir.resolve("gadget");
        attack((peer, me) -> {
            IQueue<Object> inbox = peer.getQueue(Cluster.INBOX);
            inbox.offer(42);
            inbox.offer(new Gadget(gadget.toString()));
            inbox.offer("{not json");
            inbox.offer(handshake(peer).seal("{\"type\":\"launched\",\"host\":\"x\",\"port\":1,\"pid\":1}"));
            sync(peer, me);
        });
        assertFalse(Files.exists(gadget), "a Java-serialized queue item was deserialized");
        String text = log();
        assertTrue(text.contains("refused an order: a queue item of type java.lang.Integer, not JSON text"), text);
        assertTrue(text.contains("refused an order that could not be read"), text);
        assertTrue(text.contains("refused an order: unreadable message"), text);
        assertTrue(text.contains("refused an order: a Launched is an agent's answer, not an order"), text);
    }

    @Test
    void loadsThatAreBogusOrOverTheCapsAreRefusedInOneLine() throws Exception {
        attack((peer, me) -> {
            ObjectNode load = SpecCodec.toJson(LoadSpec.builder().url(url()).connections(2).requests(10).build());
            assertTrue(refusal(peer, prepare(me, load.deepCopy().put("transport", "BOGUS"), 60_000))
                    .startsWith("transport 'BOGUS' is none of [AUTO, EPOLL, IO_URING, NIO]"), log());
            assertEquals("connections 1000000 is over this agent's cap of 100000",
                    refusal(peer, prepare(me, load.deepCopy().put("connections", 1_000_000), 60_000)));
            assertTrue(refusal(peer, prepare(me, load, Long.MAX_VALUE)).startsWith("run_limit_ms "
                    + Long.MAX_VALUE + " is over this agent's cap"), log());
            assertTrue(refusal(peer, prepare(UUID.randomUUID().toString(), load, 60_000))
                    .endsWith("is not connected to this agent: orders come from a coordinator's own connection"), log());
        });
    }

    /** The coordinator's client has the same filter: a gadget in its reply queue is not deserialized. */
    @Test
    void aCoordinatorDoesNotDeserializeAGadgetInItsReplies() throws Exception {
        Path gadget = dir.resolve("gadget");
        HazelcastInstance peer = Cluster.client(agent.listen(), Secret.read(secretFile), ANSWER);
        HazelcastInstance coordinator = Cluster.client(agent.listen(), Secret.read(secretFile), ANSWER);
        try {
            peer.getQueue(Cluster.REPLIES + "s").offer(new Gadget(gadget.toString()));
            IQueue<Object> replies = coordinator.getQueue(Cluster.REPLIES + "s");
            assertThrows(HazelcastSerializationException.class, () -> replies.poll(ANSWER.toMillis(),
                    TimeUnit.MILLISECONDS));
        } finally {
            coordinator.shutdown();
            peer.shutdown();
        }
        assertFalse(Files.exists(gadget), "a Java-serialized reply was deserialized");
    }

    /** What a peer with the secret does, from a client of its own; then a real coordinator's run and subject. */
    private void attack(Attack a) throws Exception {
        HazelcastInstance peer = Cluster.client(agent.listen(), Secret.read(secretFile), ANSWER);
        try {
            a.run(peer, peer.getLocalEndpoint().getUuid().toString());
        } finally {
            peer.shutdown();
        }
        EngineResult r = new AgentEngine(new AgentSet(List.of(agent.listen()), secretFile, Optional.empty()))
                .run(RunSpec.inProcess(LoadSpec.builder().url(url()).connections(2).requests(50).build()),
                        LoadListener.NONE);
        assertEquals(50, r.requests(), log());
        assertTrue(r.failure().isEmpty(), log());
        try (RemoteSubject s = RemoteSubject.start(new SubjectHost(agent.listen(), secretFile), "demo",
                Map.of("mode", "fsync"), Optional.empty(), ANSWER)) {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + s.host() + ":" + s.port() + "/plaintext")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("ok fsync", answer.body());
        }
    }

    @FunctionalInterface
    private interface Attack {
        void run(HazelcastInstance peer, String peerClient) throws Exception;
    }

    /** The inbox is taken in order by one thread: once this ping is answered, everything sent before was read. */
    private void sync(HazelcastInstance peer, String me) throws InterruptedException {
        assertInstanceOf(Message.Pong.class, ask(peer, session -> new Message.Ping(session, Cluster.REPLIES + session,
                me, 1)));
    }

    /** A launch of the demo subject with one variant value, from the peer's client. */
    private static java.util.function.Function<String, Message.Order> launch(String client, String name, String value) {
        return session -> new Message.Launch(session, Cluster.REPLIES + session, client, "demo", Map.of(name, value),
                20_000, Optional.empty());
    }

    private static java.util.function.Function<String, Message.Order> prepare(String client, ObjectNode load,
                                                                            long runLimitMs) {
        return session -> new Message.Prepare(session, Cluster.REPLIES + session, client, load, runLimitMs);
    }

    /** A fresh session of the peer, proven with the agents' secret as a coordinator proves it. */
    private Envelope handshake(HazelcastInstance peer) {
        return Handshake.coordinator(peer, Secret.read(secretFile), UUID.randomUUID().toString(), agent.listen(),
                ANSWER);
    }

    /** Sends the order, sealed, in a fresh session and returns the agent's answer. */
    private Message ask(HazelcastInstance peer, java.util.function.Function<String, Message.Order> order)
            throws InterruptedException {
        Envelope e = handshake(peer);
        peer.<String>getQueue(Cluster.INBOX).offer(e.seal(Wire.encode(order.apply(e.session()))));
        return open(e, peer.getQueue(Cluster.REPLIES + e.session()));
    }

    /** The session's next answer, opened. */
    private static Message open(Envelope e, IQueue<String> replies) throws InterruptedException {
        String answer = replies.poll(ANSWER.toMillis(), TimeUnit.MILLISECONDS);
        assertTrue(answer != null, "no answer from the agent within " + ANSWER);
        return Wire.decode(e.open(answer));
    }

    /** How many lines of the agent's log contain {@code text}. */
    private long count(String text) {
        return log().lines().filter(l -> l.contains(text)).count();
    }

    /** The agent's refusal of the order, in one line. */
    private String refusal(HazelcastInstance peer, java.util.function.Function<String, Message.Order> order)
            throws InterruptedException {
        Message m = ask(peer, order);
        assertInstanceOf(Message.Refused.class, m, log());
        String why = ((Message.Refused) m).error();
        assertFalse(why.contains("\n"), why);
        return why;
    }

    /** Every file and folder under the test's folder except the agent's scratch folder. */
    private List<Path> outsideScratch() throws IOException {
        Path scratch = home.resolve("target/agent-subjects");
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> !p.startsWith(scratch)).sorted().toList();
        }
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/plaintext";
    }

    private String log() {
        return log.toString(StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
