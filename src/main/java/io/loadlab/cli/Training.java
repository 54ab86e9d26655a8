package io.loadlab.cli;

import io.loadlab.kernel.KernelMain;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The training run of the class-data-sharing archive: {@code ./loadlab} runs it once after each
 * build under {@code -XX:DumpLoadedClassList}, then dumps a static archive of the classes it
 * listed ({@code -Xshare:dump}), so that the archive next to the jar holds the classes (parsed,
 * verified, laid out) that a {@code load} run and a kernel's start use, and later JVMs map them
 * instead of loading them. It loads a server of its own on 127.0.0.1 (a closed loop
 * with the JSON and the text summary, a fixed rate with an hlog, pipelining), then starts a
 * kernel's JShell and runs a cell. What it prints is thrown away; exit code 0 when every run
 * succeeded.
 */
final class Training {

    private static final byte[] ANSWER = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\n"
            + "Hello, World!").getBytes(StandardCharsets.US_ASCII);

    private Training() {
    }

    public static void main(String[] args) throws IOException {
        Path hlog = Files.createTempFile("loadlab-training", ".hlog");
        int failed = 0;
        try (ServerSocket server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> serve(server), "training-server");
            acceptor.setDaemon(true);
            acceptor.start();
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/plaintext";
            for (List<String> run : List.of(
                    List.of("load", "-c", "4", "-d", "1s", "--warmup", "500ms", "--json", url),
                    List.of("load", "-c", "4", "-d", "1s", "--warmup", "0s", "-R", "2000", "--hlog", hlog.toString(), url),
                    List.of("load", "-c", "2", "-n", "2000", "--pipeline", "4", url))) {
                failed += Main.execute(run.toArray(new String[0]), discard(), discard()) == 0 ? 0 : 1;
            }
        } finally {
            Files.deleteIfExists(hlog);
        }
        failed += KernelMain.train() ? 0 : 1;
        System.exit(failed == 0 ? 0 : 1);
    }

    private static PrintWriter discard() {
        return new PrintWriter(new StringWriter(), true);
    }

    /** Answers every request on every connection with 200 and "Hello, World!", a thread per connection. */
    private static void serve(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> answer(s), "training-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void answer(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            byte[] buf = new byte[8192];
            int matched = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                int answers = 0;
                for (int i = 0; i < n; i++) {
                    // Counts request ends (CRLF CRLF); the requests have no body.
                    matched = buf[i] == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (buf[i] == '\r' ? 1 : 0);
                    if (matched == 4) {
                        answers++;
                        matched = 0;
                    }
                }
                for (int a = 0; a < answers; a++) {
                    out.write(ANSWER);
                }
                out.flush();
            }
        } catch (IOException e) {
            // The client closed the connection: the run is over.
        }
    }
}
