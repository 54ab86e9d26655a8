package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.messages.request.ExecuteRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The kernel's shell channel over real ZeroMQ sockets, wired as {@code KernelConnection} wires it
 * ({@link KernelConnection#guard}), with a handler that records the code of each execute request
 * it is given. Each test sends the refused message first and a good one after it: the channel
 * handles one message at a time in order, so once the good one arrived the refused one was judged.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SignedShellChannelTest {

    private final String key = UUID.randomUUID().toString();
    private final BlockingQueue<String> executed = new LinkedBlockingQueue<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private JupyterConnection connection;
    private ZContext client;
    private ZMQ.Socket shell;

    @BeforeEach
    void connect() throws Exception {
        int[] ports = freePorts();
        KernelConnectionProperties props = new KernelConnectionProperties("127.0.0.1", ports[0], ports[1], ports[2],
                ports[3], ports[4], "tcp", "hmac-sha256", key);
        connection = new JupyterConnection(props);
        KernelConnection.guard(connection, props, log::add);
        connection.setHandler(ExecuteRequest.MESSAGE_TYPE, (env, m) -> executed.add(m.getContent().getCode()));
        connection.connect();
        client = new ZContext();
        shell = client.createSocket(SocketType.DEALER);
        shell.connect("tcp://127.0.0.1:" + ports[1]);
    }

    @AfterEach
    void close() {
        client.close();
        connection.close();
    }

    @Test
    void aMessageWithABadSignatureIsNotExecuted() throws Exception {
        List<byte[]> forged = execute("forged");
        byte[] sig = forged.get(1);
        sig[sig.length - 1] = (byte) (sig[sig.length - 1] == '0' ? '1' : '0');
        send(forged);
        List<byte[]> unsigned = execute("unsigned");
        unsigned.set(1, new byte[0]);
        send(unsigned);
        send(execute("good"));
        assertEquals("good", next());
        assertEquals(2, log.stream().filter(l -> l.contains("dropped a message with a bad signature")).count(), log.toString());
    }

    @Test
    void aReplayedMessageIsNotExecutedTwice() throws Exception {
        List<byte[]> once = execute("once");
        send(once);
        assertEquals("once", next());
        send(once);
        send(execute("after"));
        assertEquals("after", next(), "the replayed message ran again");
        assertEquals(List.of("loadlab kernel: the shell channel dropped a replayed message (its signature was seen before)"),
                log);
    }

    @Test
    void aMessageOverTheSizeCapIsRefused() throws Exception {
        // Two blobs of 33 MiB: each frame is under the cap, the message (blobs are not signed) is over.
        List<byte[]> big = execute("big");
        byte[] blob = new byte[33 << 20];
        big.add(blob);
        big.add(blob);
        send(big);
        send(execute("small"));
        assertEquals("small", next());
        assertEquals(1, log.size(), log.toString());
        assertTrue(log.get(0).startsWith("loadlab kernel: the shell channel dropped a message of 69,206,"), log.get(0));
    }

    private String next() throws InterruptedException {
        String code = executed.poll(30, TimeUnit.SECONDS);
        if (code == null) {
            throw new AssertionError("nothing was executed within 30 s; log: " + log);
        }
        return code;
    }

    private void send(List<byte[]> frames) {
        for (int i = 0; i < frames.size(); i++) {
            assertTrue(i < frames.size() - 1 ? shell.sendMore(frames.get(i)) : shell.send(frames.get(i)));
        }
    }

    /** The frames of a signed execute request (a new message id each time): delimiter, signature, 4 parts. */
    private List<byte[]> execute(String code) throws Exception {
        return new SignedMessages(key).execute(code, false);
    }

    static int[] freePorts() throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[5];
            for (int i = 0; i < ports.length; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
    }
}
