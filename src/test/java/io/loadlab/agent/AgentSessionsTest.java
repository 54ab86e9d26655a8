package io.loadlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's session table on its own member: a peer that knows only the cluster name can open
 * handshakes without end, but the table holds {@value AgentSessions#MAX_SESSIONS} sessions at most.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class AgentSessionsTest {

    private static final Secret SECRET = Secret.of("the sessions test's shared secret");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final String client = UUID.randomUUID().toString();
    private HazelcastInstance member;
    private AgentSessions sessions;

    @BeforeEach
    void start() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        member = Cluster.member(new HostPort("127.0.0.1", port), SECRET);
        sessions = new AgentSessions(SECRET, member);
    }

    @AfterEach
    void stop() {
        member.shutdown();
    }

    /** Sends a hello of a fresh session, returns the session and its coordinator proof. */
    private String[] hello() throws Exception {
        String session = UUID.randomUUID().toString();
        byte[] nonceC = Handshake.nonce();
        assertEquals(Optional.empty(), sessions.take(Handshake.hello(session, client, nonceC), List.of(client)));
        JsonNode answer = JSON.readTree(member.<String>getQueue(Cluster.REPLIES + session).poll());
        byte[] proof = Handshake.mac(SECRET, "coordinator", session, nonceC, Handshake.bytes(answer, "nonce"));
        return new String[] {session, Handshake.proof(session, proof)};
    }

    @Test
    void aNewHelloEvictsTheOldestUnprovenSessionOnceTheTableIsFull() throws Exception {
        List<String[]> pending = new ArrayList<>();
        for (int i = 0; i <= AgentSessions.MAX_SESSIONS; i++) {
            pending.add(hello());
            member.getQueue(Cluster.REPLIES + pending.get(i)[0]).add("the answer, left unread by a peer");
        }
        assertEquals(0, member.getQueue(Cluster.REPLIES + pending.get(0)[0]).size(), "the evicted hello's queue was kept");
        assertEquals(1, member.getQueue(Cluster.REPLIES + pending.get(1)[0]).size());
        AgentException e = assertThrows(AgentException.class, () -> sessions.take(pending.get(0)[1], List.of(client)));
        assertTrue(e.getMessage().contains("no hello of that session waits for it"), e.getMessage());
        assertEquals(Optional.empty(), sessions.take(pending.get(1)[1], List.of(client)));
        assertTrue(sessions.replies(pending.get(1)[0]).isPresent());
    }

    @Test
    void aHelloIsRefusedWhenEverySessionIsProvenUntilTheirClientLeaves() throws Exception {
        for (int i = 0; i < AgentSessions.MAX_SESSIONS; i++) {
            String[] s = hello();
            sessions.take(s[1], List.of(client));
        }
        AgentException e = assertThrows(AgentException.class, this::hello);
        assertTrue(e.getMessage().endsWith("this agent already holds " + AgentSessions.MAX_SESSIONS + " sessions"),
                e.getMessage());
        sessions.clientGone(client);
        String[] again = hello();
        assertEquals(Optional.empty(), sessions.take(again[1], List.of(client)));
    }

    @Test
    void aHelloFromAClientThatIsNotConnectedIsRefused() {
        String session = UUID.randomUUID().toString();
        assertThrows(AgentException.class, () -> sessions.take(Handshake.hello(session, client, Handshake.nonce()),
                List.of(UUID.randomUUID().toString())));
        assertEquals(null, member.getQueue(Cluster.REPLIES + session).poll());
    }
}
