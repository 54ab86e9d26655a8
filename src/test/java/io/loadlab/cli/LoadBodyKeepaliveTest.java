package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loadlab load --body}, {@code --body-file} and {@code --no-keepalive} against a loopback
 * server of raw sockets that keeps every request's head and body and counts the connections it
 * accepted. It never closes a connection itself, so a new connection per request can only be the
 * client's doing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadBodyKeepaliveTest {

    private ServerSocket socket;
    private ExecutorService pool;
    private final AtomicInteger connections = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> heads = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<byte[]> bodies = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws IOException {
        socket = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        pool = Executors.newCachedThreadPool();
        pool.execute(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    connections.incrementAndGet();
                    pool.execute(() -> serve(s));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stop() throws IOException, InterruptedException {
        socket.close();
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** Answers every request on the connection with 200 "ok" until the client closes it. */
    private void serve(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            while (true) {
                String head = head(in);
                if (head == null) {
                    return;
                }
                int length = 0;
                for (String line : head.split("\r\n")) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).strip());
                    }
                }
                heads.add(head);
                bodies.add(in.readNBytes(length));
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException e) {
            // The client went away mid-request: nothing to keep.
        }
    }

    /** The request head up to its blank line, or null at end of stream. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            b.write(c);
            String s = b.toString(StandardCharsets.ISO_8859_1);
            if (s.endsWith("\r\n\r\n")) {
                return s;
            }
        }
        return null;
    }

    private String url() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/orders";
    }

    @Test
    void bodyTextIsSentAsItsUtf8BytesWithTheGivenContentType() {
        String json = "{\"qty\": 1, \"note\": \"café\"}";
        CliRun o = CliRun.of("load", "-X", "POST", "--body", json, "-H", "Content-Type: application/json",
                "-c", "1", "-n", "20", url());
        assertEquals(0, o.code(), o.err());
        assertEquals(20, bodies.size());
        for (byte[] b : bodies) {
            assertArrayEquals(json.getBytes(StandardCharsets.UTF_8), b);
        }
        assertTrue(heads.stream().allMatch(h -> h.startsWith("POST /orders HTTP/1.1\r\n")
                && h.contains("\r\nContent-Type: application/json\r\n")), heads.peek());
    }

    @Test
    void bodyFileIsSentByteForByte(@TempDir Path dir) throws IOException {
        byte[] bytes = new byte[3000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        Path file = Files.write(dir.resolve("payload.bin"), bytes);
        CliRun o = CliRun.of("load", "-X", "PUT", "--body-file", file.toString(), "-c", "2", "-n", "10", url());
        assertEquals(0, o.code(), o.err());
        assertEquals(10, bodies.size());
        bodies.forEach(b -> assertArrayEquals(bytes, b));
    }

    @Test
    void badBodyOptionsGiveOneLineAndExitTwo(@TempDir Path dir) {
        CliRun both = CliRun.of("load", "--body", "x", "--body-size", "10", "-n", "1", url());
        assertEquals(2, both.code());
        assertEquals("loadlab: --body, --body-file and --body-size each give the body; keep one", both.err().strip());
        CliRun missing = CliRun.of("load", "--body-file", dir.resolve("none.json").toString(), "-n", "1", url());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("none.json is not a file"), missing.err());
        Path big = dir.resolve("big.bin");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(io.loadlab.load.RequestTemplate.MAX_BODY + 1L); // sparse: no disk, and never read
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        CliRun tooBig = CliRun.of("load", "--body-file", big.toString(), "-n", "1", url());
        assertEquals(2, tooBig.code());
        assertTrue(tooBig.err().contains("big.bin is larger than a request body may be: at most 67108864 bytes (64 MiB)"),
                tooBig.err());
        assertEquals(0, connections.get(), "nothing was sent");
    }

    @Test
    void noKeepaliveOpensAConnectionPerRequestAndSaysConnectionClose() {
        CliRun o = CliRun.of("load", "--no-keepalive", "-c", "2", "-n", "40", url());
        assertEquals(0, o.code(), o.err());
        assertEquals(40, heads.size());
        assertTrue(heads.stream().allMatch(h -> h.contains("\r\nConnection: close\r\n")), heads.peek());
        assertTrue(connections.get() >= 40, "one connection per request at least, got " + connections.get());
        assertTrue(o.out().contains("a new connection per request"), o.out());
    }

    @Test
    void keepAliveIsTheDefault() {
        CliRun o = CliRun.of("load", "-c", "2", "-n", "40", url());
        assertEquals(0, o.code(), o.err());
        assertEquals(40, heads.size());
        // The two of -c, and the one the engine opens before the run to check that the server speaks the protocol.
        assertEquals(2 + 1, connections.get());
    }

    @Test
    void noKeepaliveRefusesWhatCannotCloseEachRequestsConnection() {
        for (List<String> args : List.of(List.of("--pipeline", "4"), List.of("--h2c"),
                List.of("-H", "Connection: keep-alive"))) {
            List<String> all = new java.util.ArrayList<>(List.of("load", "--no-keepalive", "-n", "1"));
            all.addAll(args);
            all.add(url());
            CliRun o = CliRun.of(all.toArray(String[]::new));
            assertEquals(2, o.code(), args + ": " + o.err());
            assertTrue(o.err().contains("--no-keepalive"), o.err());
        }
        assertEquals(0, connections.get());
    }
}
