package io.loadlab.load;

import io.loadlab.host.Executables;
import io.loadlab.subject.SubjectProcess;
import io.loadlab.subject.Subjects;
import io.loadlab.subject.ThrowawayCa;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * nginx with TLS (1.2 and 1.3, session cache and tickets) and HTTP/2 on 127.0.0.1 and the harness's
 * free ports (one server per certificate), for the engine's TLS tests: {@code /plaintext} answers 200
 * {@code Hello, World!}, every other path 404. Started by the test, stopped by its pid ({@link #close}).
 */
public final class TestNginx implements AutoCloseable {

    private final Process process;
    private final List<Integer> ports;

    private TestNginx(Process process, List<Integer> ports) {
        this.process = process;
        this.ports = List.copyOf(ports);
    }

    public static boolean available() {
        return Executables.onPath("nginx");
    }

    /**
     * One TLS server of the nginx.
     *
     * @param cert              its certificate
     * @param keepaliveRequests requests a connection may carry before nginx closes it (HTTP/1.1) or sends
     *                          GOAWAY (h2), so that a test sees new connections and their resumed sessions
     */
    public record Site(ThrowawayCa.ServerFiles cert, int keepaliveRequests) {}

    /** One TLS server per site, each on a port of its own ({@link #url(int, String)}). */
    public static TestNginx start(Path dir, List<Site> sites) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("temp"));
        List<Integer> ports = new ArrayList<>();
        StringBuilder servers = new StringBuilder();
        for (Site site : sites) {
            int port = SubjectProcess.freePort();
            ports.add(port);
            servers.append(String.join("\n", "  server {", "    listen 127.0.0.1:" + port + " ssl http2;",
                    "    keepalive_requests " + site.keepaliveRequests() + ";",
                    "    ssl_certificate " + site.cert().cert() + ";", "    ssl_certificate_key " + site.cert().key() + ";",
                    "    location = /plaintext { default_type text/plain; return 200 \"Hello, World!\"; }",
                    "    location / { return 404; }", "  }", ""));
        }
        String conf = String.join("\n",
                "daemon off;", "worker_processes 1;", "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("error.log") + " warn;", "events { worker_connections 1024; }",
                "http {", "  access_log off;",
                "  client_body_temp_path " + dir.resolve("temp") + ";", "  proxy_temp_path " + dir.resolve("temp") + ";",
                "  fastcgi_temp_path " + dir.resolve("temp") + ";", "  uwsgi_temp_path " + dir.resolve("temp") + ";",
                "  scgi_temp_path " + dir.resolve("temp") + ";",
                "  ssl_protocols TLSv1.2 TLSv1.3;", "  ssl_session_cache shared:SSL:1m;",
                servers.toString(), "}", "");
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, conf);
        Process p = new ProcessBuilder("nginx", "-p", dir + "/", "-e", dir.resolve("error.log").toString(),
                "-c", file.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
        TestNginx n = new TestNginx(p, ports);
        for (int port : ports) {
            n.awaitListening(port);
        }
        return n;
    }

    private void awaitListening(int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("nginx exited with " + process.exitValue());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                process.waitFor(20, TimeUnit.MILLISECONDS); // returns at once should nginx exit
            }
        }
        throw new IOException("nginx did not listen on port " + port + " within 30 s");
    }

    /** The first server's URL. */
    public String url(String path) {
        return url(0, path);
    }

    /** The URL of the server with the {@code i}-th certificate. */
    public String url(int i, String path) {
        return "https://127.0.0.1:" + ports.get(i) + path;
    }

    /** SIGTERM to the master by pid (it stops its workers), SIGKILL after 10 s. */
    @Override
    public void close() throws InterruptedException {
        ProcessHandle h = process.toHandle();
        h.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            h.descendants().forEach(ProcessHandle::destroyForcibly);
            h.destroyForcibly();
            process.waitFor();
        }
    }
}
