package io.loadlab.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small blocking HTTP/1.1 server for tests, on 127.0.0.1 and an ephemeral port: one thread
 * per connection, requests parsed, the answer left to a {@link Handler} that writes raw bytes,
 * so tests can send anything from a correct response to garbage. {@link #close()} closes every
 * socket and joins every thread.
 */
final class TestHttpServer implements AutoCloseable {

    /** A parsed request; {@code headers} its header lines as sent. */
    record Request(String method, String path, long number, byte[] body, List<String> headers) {}

    /** Writes the answer to one request; returns {@code false} to close the connection. */
    interface Handler {
        boolean handle(Request request, OutputStream out) throws IOException;
    }

    private final ServerSocket server;
    private final Handler handler;
    private final AtomicLong requests = new AtomicLong();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    /** Runs first at {@link #close}: lets go of handlers that wait. */
    private final Runnable onClose;

    private TestHttpServer(Handler handler, Runnable onClose) throws IOException {
        this.server = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        this.handler = handler;
        this.onClose = onClose;
        this.acceptor = new Thread(this::acceptLoop, "test-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static TestHttpServer start(Handler handler) throws IOException {
        return new TestHttpServer(handler, () -> { });
    }

    /** A server that reads each request and never answers it, until it is closed. */
    static TestHttpServer neverAnswering() throws IOException {
        CountDownLatch closing = new CountDownLatch(1);
        return new TestHttpServer((req, out) -> {
            try {
                closing.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }, closing::countDown);
    }

    /** A server that answers every request with 200 and {@code body}. */
    static TestHttpServer fixed(String body) throws IOException {
        return start((req, out) -> {
            ok(out, body);
            return true;
        });
    }

    int port() {
        return server.getLocalPort();
    }

    String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** Requests received (complete request heads) so far. */
    long requests() {
        return requests.get();
    }

    /** Writes a 200 answer with a Content-Length body. */
    static void ok(OutputStream out, String body) throws IOException {
        respond(out, 200, body);
    }

    static void respond(OutputStream out, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        out.write(String.format(Locale.ROOT, "HTTP/1.1 %d X\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n",
                status, b.length).getBytes(StandardCharsets.US_ASCII));
        out.write(b);
        out.flush();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "test-server-conn");
                t.setDaemon(true);
                threads.add(t);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (true) {
                String line = readLine(in);
                if (line == null) {
                    return;
                }
                if (line.isEmpty()) {
                    continue;
                }
                String[] parts = line.split(" ");
                long contentLength = 0;
                List<String> headers = new java.util.ArrayList<>();
                String h;
                while ((h = readLine(in)) != null && !h.isEmpty()) {
                    headers.add(h);
                    int colon = h.indexOf(':');
                    if (colon > 0 && h.substring(0, colon).equalsIgnoreCase("content-length")) {
                        contentLength = Long.parseLong(h.substring(colon + 1).trim());
                    }
                }
                if (h == null) {
                    return;
                }
                byte[] body = in.readNBytes((int) contentLength);
                long n = requests.incrementAndGet();
                if (!handler.handle(new Request(parts[0], parts.length > 1 ? parts[1] : "", n, body, headers), out)) {
                    return;
                }
            }
        } catch (IOException e) {
            // The client went away or the server is closing: the connection ends.
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            sb.append((char) c);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    @Override
    public void close() throws IOException {
        onClose.run();
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
        try {
            acceptor.join(5000);
            for (Thread t : threads) {
                t.join(5000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
