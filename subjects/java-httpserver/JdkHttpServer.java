// Loadlab subject "java-httpserver": the subject contract on the JDK's own com.sun.net.httpserver,
// with no other library. Loadlab compiles it once with javac (see subject.yaml); by hand:
//   java JdkHttpServer.java --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
// It prints "listening on PORT" once it accepts connections. In fsync mode a PUT is answered only
// after its value is on disk (FileChannel.force(false), i.e. fdatasync).
//
// Threading. The JDK server has one dispatcher thread that accepts and watches idle keep-alive
// connections; each request (header parsing, the handler, writing the answer) then runs on the
// executor we give it, with the socket in blocking mode. A worker is therefore held while a large
// answer drains to a slow reader or while a PUT waits for fdatasync, so the pool has
// THREADS_PER_CPU x --threads workers: enough that CPUs stay busy while some of them wait, few
// enough not to thrash. /delay/{ms} holds no worker at all: the handler returns without closing
// the exchange (the JDK allows an exchange to be completed later, from any thread) and a
// single-threaded scheduler hands the answer back to the pool when the time is up. Sleeping in a
// worker instead would let 4 x N slow requests starve every quick one, and an unbounded cached
// pool would spend one thread per waiting request.

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

public final class JdkHttpServer {

    static final int THREADS_PER_CPU = 4;
    static final int MAX_BYTES = 64 << 20;
    static final int MAX_KEY_BYTES = 100;
    static final byte[] PLAINTEXT = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    static final byte[] JSON = "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.UTF_8);
    /**
     * The pattern byte i = 'a' + i % 26 that /bytes/{n} serves, about 1 MiB of it. Its length is a
     * multiple of 26 so that longer answers can repeat it without breaking the pattern.
     */
    static final byte[] PATTERN = pattern(26 * 40330);
    static final ConcurrentHashMap<String, byte[]> KV = new ConcurrentHashMap<>();
    /** Two PUTs of one key must not interleave their writes to its file; striped by key hash. */
    static final Object[] FILE_LOCKS = new Object[64];

    static ExecutorService workers;
    static ScheduledExecutorService timer;
    /** Set in fsync mode: the folder that holds one file per key. */
    static Path kvDir;

    public static void main(String[] args) throws Exception {
        int port = 8080;
        int threads = Runtime.getRuntime().availableProcessors();
        String durability = "memory";
        String dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--durability" -> durability = args[++i];
                case "--dir" -> dir = args[++i];
                default -> {
                    System.err.println("java-httpserver: unknown argument " + args[i]
                            + "; usage: --port P [--threads N] [--durability memory|fsync --dir DIR]");
                    System.exit(2);
                }
            }
        }
        if (durability.equals("fsync")) {
            if (dir == null) {
                System.err.println("java-httpserver: --durability fsync needs --dir DIR");
                System.exit(2);
            }
            kvDir = Files.createDirectories(Path.of(dir, "kv"));
        } else if (!durability.equals("memory")) {
            System.err.println("java-httpserver: durability must be memory or fsync, got '" + durability + "'");
            System.exit(2);
        }
        for (int i = 0; i < FILE_LOCKS.length; i++) {
            FILE_LOCKS[i] = new Object();
        }
        // The server reads these once, when its classes load, so they must be set before create().
        // Without TCP_NODELAY a small answer can wait for the client's delayed ACK (Nagle).
        System.setProperty("sun.net.httpserver.nodelay", "true");
        // By default the server closes keep-alive connections beyond 200 idle ones, which would
        // break runs with more connections than that.
        System.setProperty("sun.net.httpserver.maxIdleConnections", "100000");

        workers = Executors.newFixedThreadPool(Math.max(1, threads) * THREADS_PER_CPU, named("worker"));
        timer = Executors.newSingleThreadScheduledExecutor(named("delay-timer"));
        HttpServer server = HttpServer.create(new InetSocketAddress("0.0.0.0", port), 1024);
        server.createContext("/", JdkHttpServer::handle);
        server.setExecutor(workers);
        server.start();
        // SIGTERM runs the shutdown hooks and ends the JVM; stop(0) closes the listening socket first.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0)));
        System.out.println("listening on " + port + " (" + Math.max(1, threads) * THREADS_PER_CPU + " worker threads)");
        System.out.flush();
    }

    static void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        String method = ex.getRequestMethod();
        boolean get = method.equals("GET");
        if (get && path.equals("/plaintext")) {
            send(ex, 200, "text/plain", PLAINTEXT);
        } else if (get && path.equals("/json")) {
            send(ex, 200, "application/json", JSON);
        } else if (get && path.startsWith("/bytes/")) {
            long n = number(path.substring(7));
            if (n < 0 || n > MAX_BYTES) {
                send(ex, 400, "text/plain", text("n must be 0.." + MAX_BYTES));
            } else {
                sendPattern(ex, (int) n);
            }
        } else if (path.startsWith("/kv/") && path.length() > 4) {
            String key = path.substring(4);
            if (method.equals("PUT")) {
                put(ex, key);
            } else if (get) {
                byte[] v = KV.get(key);
                if (v == null) {
                    send(ex, 404, "text/plain", text("no such key"));
                } else {
                    send(ex, 200, "application/octet-stream", v);
                }
            } else {
                send(ex, 405, "text/plain", text("use GET or PUT"));
            }
        } else if (get && path.startsWith("/delay/")) {
            long ms = number(path.substring(7));
            if (ms < 0 || ms > 60_000) {
                send(ex, 400, "text/plain", text("ms must be 0..60000"));
            } else {
                // Return now, leaving the exchange open; the answer goes out from a worker later.
                timer.schedule(() -> workers.execute(() -> {
                    try {
                        send(ex, 200, "text/plain", PLAINTEXT);
                    } catch (IOException e) {
                        ex.close(); // the client went away; free the connection
                    }
                }), ms, TimeUnit.MILLISECONDS);
            }
        } else {
            send(ex, 404, "text/plain", text("not found"));
        }
    }

    static void put(HttpExchange ex, String key) throws IOException {
        // Read the whole body: the server closes a connection whose request was not read to its end.
        byte[] body = ex.getRequestBody().readAllBytes();
        if (kvDir != null) {
            byte[] name = key.getBytes(StandardCharsets.UTF_8);
            if (name.length > MAX_KEY_BYTES) {
                send(ex, 400, "text/plain", text("keys are at most " + MAX_KEY_BYTES + " bytes"));
                return;
            }
            try {
                // Hex keeps any key a safe, distinct file name. Thread-per-request: the worker waits.
                writeDurably(kvDir.resolve(HexFormat.of().formatHex(name)), body);
            } catch (IOException e) {
                send(ex, 500, "text/plain", text("write failed: " + e.getMessage()));
                return;
            }
        }
        boolean existed = KV.put(key, body) != null;
        send(ex, existed ? 204 : 201, "text/plain", new byte[0]);
    }

    /** Writes the value to its own file and waits for fdatasync before returning. */
    static void writeDurably(Path file, byte[] value) throws IOException {
        synchronized (FILE_LOCKS[Math.floorMod(file.hashCode(), FILE_LOCKS.length)]) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(value);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(false);
            }
        }
    }

    static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        // -1 means "no body" (a length of 0 would make the JDK answer chunked); the JDK then sends
        // Content-Length: 0, except on 204, where HTTP forbids the header.
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
        ex.close();
    }

    static void sendPattern(HttpExchange ex, int n) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
        ex.sendResponseHeaders(200, n == 0 ? -1 : n);
        try (OutputStream out = ex.getResponseBody()) {
            for (int left = n; left > 0; left -= PATTERN.length) {
                out.write(PATTERN, 0, Math.min(left, PATTERN.length));
            }
        }
        ex.close();
    }

    static long number(String s) {
        if (s.isEmpty() || s.length() > 12) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** Daemon threads with readable names; the JDK's own dispatcher thread keeps the JVM alive. */
    static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
