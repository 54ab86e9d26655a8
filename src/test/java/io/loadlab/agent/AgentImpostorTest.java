package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import io.loadlab.engine.EngineException;
import io.loadlab.engine.RunSpec;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadSpec;
import io.loadlab.subject.ThrowawayCa;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fake agent: a Hazelcast member with the right cluster name (sniffed: Hazelcast sends it in clear)
 * that does not hold the secret, so it answers the handshake with a proof it cannot make. The
 * coordinator refuses it by name and sends it nothing after the {@code hello}: no launch, so no
 * {@code key_pem}, and no load. Before the handshake a coordinator sent its launch, key included, to
 * whoever had the cluster name.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AgentImpostorTest {

    private static final String KEY_MARKER = "THE SUBJECT'S THROW-AWAY KEY";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private Path secretFile;
    private HostPort address;
    private HazelcastInstance fake;
    private Thread answering;
    private volatile boolean stop;
    /** Every item the fake took from its inbox. */
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        secretFile = TestSecrets.write(dir.resolve("secret"), "the impostor test's shared secret\n");
        try (ServerSocket s = new ServerSocket(0)) {
            address = new HostPort("127.0.0.1", s.getLocalPort());
        }
        fake = Cluster.member(address, Secret.read(secretFile)); // its cluster name only, as if sniffed
        answering = new Thread(this::answerWithAForgedProof, "test-fake-agent");
        answering.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        stop = true;
        answering.join(TimeUnit.SECONDS.toMillis(30));
        fake.shutdown();
    }

    /** What a fake agent can do without the secret: answer every hello with a nonce and a made-up proof. */
    private void answerWithAForgedProof() {
        IQueue<String> inbox = fake.getQueue(Cluster.INBOX);
        while (!stop) {
            try {
                String item = inbox.poll(100, TimeUnit.MILLISECONDS);
                if (item == null) {
                    continue;
                }
                seen.add(item);
                JsonNode o = JSON.readTree(item);
                if (Handshake.HELLO.equals(o.path("type").asText())) {
                    String session = o.path("session").asText();
                    fake.<String>getQueue(Cluster.REPLIES + session).offer(Handshake.helloAgent(session,
                            Handshake.nonce(), Handshake.nonce()));
                }
            } catch (InterruptedException | IOException | RuntimeException e) {
                return;
            }
        }
    }

    /** Stops the fake, then takes what is left in its inbox: an offer returns once the item is stored. */
    private List<String> everythingSent() throws InterruptedException {
        stop = true;
        answering.join(TimeUnit.SECONDS.toMillis(30));
        fake.<String>getQueue(Cluster.INBOX).drainTo(seen);
        return seen;
    }

    @Test
    void aLaunchWithItsKeyIsNeverSentToAnAgentThatCannotProveItself() throws Exception {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\nx\n");
        Path key = Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\n" + KEY_MARKER + "\n");
        AgentException e = assertThrows(AgentException.class, () -> RemoteSubject.start(
                new SubjectHost(address, secretFile), "demo", Map.of(), Optional.of(new ThrowawayCa.ServerFiles(cert, key)),
                Duration.ofSeconds(20)));
        assertTrue(e.getMessage().startsWith("agent " + address + " did not prove it holds the secret: "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        List<String> sent = everythingSent();
        assertEquals(1, sent.size(), sent.toString());
        assertEquals(Handshake.HELLO, JSON.readTree(sent.get(0)).path("type").asText());
        for (String item : sent) {
            assertFalse(item.contains("key_pem") || item.contains(KEY_MARKER), item);
        }
    }

    @Test
    void aRunIsNeverPreparedOnAnAgentThatCannotProveItself() throws Exception {
        AgentEngine engine = new AgentEngine(new AgentSet(List.of(address), secretFile, Optional.empty()));
        EngineException e = assertThrows(EngineException.class, () -> engine.run(RunSpec.inProcess(
                LoadSpec.builder().url("http://127.0.0.1:9/").connections(1).requests(1).build()), LoadListener.NONE));
        assertTrue(e.getMessage().startsWith("agent " + address + " did not prove it holds the secret"), e.getMessage());
        List<String> sent = everythingSent();
        assertEquals(1, sent.size(), sent.toString());
        assertEquals(Handshake.HELLO, JSON.readTree(sent.get(0)).path("type").asText());
    }
}
