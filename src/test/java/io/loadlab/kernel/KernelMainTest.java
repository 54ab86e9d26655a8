package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The kernel process: it leaves when its parent or its connection file goes, so no JVM is orphaned. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KernelMainTest {

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final String CLASSPATH = KernelFixture.HOME.resolve("target/classes") + File.pathSeparator
            + KernelFixture.HOME.resolve("target/lib") + File.separator + "*";

    @TempDir
    Path tmp;

    @Test
    void exitsWhenItsParentDies() throws Exception {
        int[] ports = freePorts();
        Path conn = connectionFile(ports);
        Path err = tmp.resolve("kernel.err");
        // bash starts the kernel in the background and waits: killing bash orphans the kernel.
        Process bash = new ProcessBuilder("bash", "-c", "\"$0\" -cp \"$1\" io.loadlab.kernel.KernelMain \"$2\" 2>\"$3\" & "
                + "echo $!; wait", JAVA, CLASSPATH, conn.toString(), err.toString()).redirectErrorStream(true).start();
        ProcessHandle kernel = null;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(bash.getInputStream(), StandardCharsets.UTF_8));
            long pid = Long.parseLong(out.readLine().strip());
            kernel = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("the kernel exited at once: "
                    + read(err)));
            awaitListening(ports[1], kernel, err);
            bash.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            try {
                kernel.onExit().get(20, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                fail("the kernel outlived its parent by 20 s");
            }
            assertTrue(read(err).contains("the parent process " + bash.pid() + " exited"), read(err));
        } finally {
            if (kernel != null) {
                kernel.destroyForcibly();
            }
            bash.destroyForcibly();
        }
    }

    @Test
    void exitsWhenItsConnectionFileIsRemoved() throws Exception {
        int[] ports = freePorts();
        Path conn = connectionFile(ports);
        Path log = tmp.resolve("kernel.log");
        Process k = new ProcessBuilder(JAVA, "-cp", CLASSPATH, "io.loadlab.kernel.KernelMain", conn.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            awaitListening(ports[1], k.toHandle(), log);
            Files.delete(conn);
            assertTrue(k.waitFor(20, TimeUnit.SECONDS), "the kernel kept running without its connection file");
            assertEquals(0, k.exitValue());
            assertTrue(read(log).contains("the connection file " + conn + " was removed"), read(log));
        } finally {
            k.destroyForcibly();
        }
    }

    @Test
    void aMissingConnectionFileIsExitCodeTwo() throws Exception {
        Path log = tmp.resolve("kernel.log");
        Process k = new ProcessBuilder(JAVA, "-cp", CLASSPATH, "io.loadlab.kernel.KernelMain", tmp.resolve("none.json").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(k.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, k.exitValue());
        assertTrue(read(log).contains("cannot read the connection file"), read(log));
    }

    @Test
    void anEmptyKeyIsRefusedUnlessAllowedOnPurpose() throws Exception {
        Path conn = connectionFile(freePorts(), "");
        Path log = tmp.resolve("refused.log");
        Process refused = new ProcessBuilder(JAVA, "-cp", CLASSPATH, "io.loadlab.kernel.KernelMain", conn.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(refused.waitFor(60, TimeUnit.SECONDS), "the kernel started with an empty key");
            assertEquals(2, refused.exitValue(), read(log));
            assertEquals("loadlab kernel: the connection file " + conn + " has an empty key, so anyone who can reach its"
                    + " ports could run code; let Jupyter write a key (its default), or install the kernel with"
                    + " 'loadlab kernel install --allow-unsigned' to accept unsigned messages on purpose\n", read(log));
        } finally {
            refused.destroyForcibly();
        }

        int[] ports = freePorts();
        Path allowedConn = connectionFile(ports, "");
        Path allowedLog = tmp.resolve("allowed.log");
        Process allowed = new ProcessBuilder(JAVA, "-cp", CLASSPATH, "io.loadlab.kernel.KernelMain", "--allow-unsigned",
                allowedConn.toString()).redirectErrorStream(true).redirectOutput(allowedLog.toFile()).start();
        try {
            awaitListening(ports[1], allowed.toHandle(), allowedLog);
        } finally {
            allowed.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    private Path connectionFile(int[] ports) throws IOException {
        return connectionFile(ports, UUID.randomUUID().toString());
    }

    private Path connectionFile(int[] ports, String key) throws IOException {
        Path conn = tmp.resolve("kernel-" + UUID.randomUUID() + ".json");
        Files.writeString(conn, String.format("{\"control_port\": %d, \"shell_port\": %d, \"stdin_port\": %d, "
                + "\"hb_port\": %d, \"iopub_port\": %d, \"transport\": \"tcp\", \"ip\": \"127.0.0.1\", "
                + "\"signature_scheme\": \"hmac-sha256\", \"key\": \"%s\"}", ports[0], ports[1], ports[2], ports[3], ports[4],
                key));
        return conn;
    }

    private static int[] freePorts() throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[5];
            for (int i = 0; i < ports.length; i++) {
                ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
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

    /** Waits until the kernel's shell port accepts connections: the kernel is up. */
    private static void awaitListening(int port, ProcessHandle kernel, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!kernel.isAlive()) {
                fail("the kernel exited before listening: " + read(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        fail("the kernel did not listen on port " + port + " within 60 s: " + read(log));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
