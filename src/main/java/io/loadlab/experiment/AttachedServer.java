package io.loadlab.experiment;

import io.loadlab.subject.ServerSampler;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.SubjectManifest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A server someone else started ({@code url:} in a project), which the runner only loads: it is
 * neither built, started, pinned nor stopped here. Its CPU and peak RSS are sampled when the project
 * gives its pid ({@code pid:}, or {@code pid-file:} read when a round reaches it); otherwise they stay
 * empty. Its rows say {@code server_launch} {@code attached}.
 */
record AttachedServer(String label, URI url, Optional<ProcessHandle> process) implements Server {

    /** A pid file is one number: anything longer is not one. */
    private static final int PID_FILE_MAX_BYTES = 64;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    /**
     * The server of {@code inst}, once its readiness path answers 2xx. Its pid (file) is read only then:
     * a server just started may write its pid file a moment after it first listens, or before.
     *
     * @throws SubjectException when it does not within {@code ready}, or its pid is not a running process
     */
    static AttachedServer await(Plan.Instance inst, Duration ready, Measurement.Waits waits) {
        SubjectManifest m = inst.subject().manifest();
        SubjectManifest.Attached a = m.attached().orElseThrow();
        waits.interruptibly(() -> {
            probe(inst.label(), a.url(), m.ready().path(), ready);
            return null;
        });
        Optional<ProcessHandle> process = pid(inst.label(), a).stream().boxed().findFirst()
                .map(pid -> ProcessHandle.of(pid).orElseThrow(() -> new SubjectException("subject " + inst.label()
                        + ": no process has pid " + pid + "; start the server, or fix pid/pid-file in the project file")));
        return new AttachedServer(inst.label(), a.url(), process);
    }

    private static OptionalLong pid(String label, SubjectManifest.Attached a) {
        if (a.pid().isPresent() || a.pidFile().isEmpty()) {
            return a.pid();
        }
        Path file = a.pidFile().get();
        try {
            if (Files.size(file) > PID_FILE_MAX_BYTES) {
                throw new SubjectException("subject " + label + ": pid-file " + file + " holds more than a pid ("
                        + Files.size(file) + " bytes); give the file the server writes its pid to");
            }
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (!text.matches("[1-9][0-9]{0,9}")) {
                throw new SubjectException("subject " + label + ": pid-file " + file + " does not hold a pid (got '"
                        + text + "')");
            }
            return OptionalLong.of(Long.parseLong(text));
        } catch (IOException e) {
            throw new SubjectException("subject " + label + ": cannot read pid-file " + file + " (" + e.getMessage()
                    + "); start the server, or fix pid-file in the project file", e);
        }
    }

    /** Polls {@code GET path} until a 2xx answer, or throws when {@code ready} has passed. */
    private static void probe(String label, URI url, String path, Duration ready) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(PROBE_TIMEOUT).build();
        long deadline = System.nanoTime() + ready.toNanos();
        String last = "no answer";
        while (true) {
            try {
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(url.resolve(path)).timeout(PROBE_TIMEOUT)
                        .build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() / 100 == 2) {
                    return;
                }
                last = "status " + r.statusCode();
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SubjectException("interrupted while waiting for subject " + label, e);
            }
            if (System.nanoTime() > deadline) {
                throw new SubjectException("subject " + label + " at " + url + " did not answer GET " + path
                        + " with 2xx within " + io.loadlab.time.Durations.format(ready) + " (last: " + last
                        + "); start it, or fix url/ready in the project file");
            }
            try {
                Thread.sleep(100); // a poll interval, not a wait for a condition we could be told of
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SubjectException("interrupted while waiting for subject " + label, e);
            }
        }
    }

    @Override
    public String host() {
        return url.getHost().startsWith("[") ? url.getHost().substring(1, url.getHost().length() - 1) : url.getHost();
    }

    @Override
    public int port() {
        return url.getPort();
    }

    @Override
    public Duration age() {
        return process.flatMap(p -> p.info().startInstant())
                .map(t -> Duration.between(t, java.time.Instant.now())).filter(d -> !d.isNegative()).orElse(Duration.ZERO);
    }

    @Override
    public boolean isAlive() {
        return process.map(ProcessHandle::isAlive).orElse(true);
    }

    @Override
    public Optional<Integer> exitCode() {
        return Optional.empty();
    }

    @Override
    public String logTail(int lines) {
        return "(subject " + label + " was started outside Loadlab: its output is wherever its owner sent it)";
    }

    @Override
    public Sampler sampler(List<Integer> cpus) {
        Optional<ServerSampler> s = process.map(p -> new ServerSampler(p, cpus));
        return new Sampler() {
            @Override
            public void windowStarted() {
                s.ifPresent(ServerSampler::windowStarted);
            }

            @Override
            public OptionalDouble serverCompilerSeconds() {
                return s.map(ServerSampler::serverCompilerSeconds).orElse(OptionalDouble.empty());
            }

            @Override
            public void windowEnded() {
                s.ifPresent(ServerSampler::windowEnded);
            }

            @Override
            public ServerSampler.Window reading() {
                return s.map(ServerSampler::reading).orElse(ServerSampler.Window.NONE);
            }
        };
    }

    /** Leaves the server running: it is its owner's. */
    @Override
    public void close() {
    }
}
