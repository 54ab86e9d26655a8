package io.loadlab.experiment;

import io.loadlab.agent.AgentException;
import io.loadlab.agent.RemoteSubject;
import io.loadlab.agent.SubjectHost;
import io.loadlab.host.Cpus;
import io.loadlab.subject.LogTail;
import io.loadlab.subject.ServedProtocol;
import io.loadlab.subject.ServerSampler;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.SubjectLauncher;
import io.loadlab.subject.SubjectProcess;
import io.loadlab.subject.ThrowawayCa;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Starts a {@link Server}: a subject process on this host, built and pinned by the runner's
 * {@link SubjectLauncher}, or one that the agent on a subject host ({@code run --subject-host}) builds
 * and starts from its own checkout and samples there. Either way it is ready to answer when returned,
 * and a stop (Ctrl-C) may cut the build and the readiness wait.
 */
final class Servers {

    private Servers() {
    }

    /**
     * A subject process here, listening on {@code port} of every interface (the load reaches it at
     * 127.0.0.1), pinned to the split's server CPUs.
     *
     * @throws SubjectException when it cannot be built or started, or is not ready within {@code ready}
     */
    static Server local(SubjectLauncher launcher, Plan.Instance inst, int port, Optional<Cpus.Split> split, Path work,
                        Path log, Duration ready, Measurement.Waits waits) {
        SubjectProcess p = waits.interruptibly(() -> launcher.start(inst.subject().manifest(), inst.variant(), port,
                split.map(Cpus.Split::server), work, log));
        try {
            waits.interruptibly(() -> {
                p.awaitReady("127.0.0.1", port, inst.subject().manifest().ready().path(), ready,
                        ServedProtocol.of(inst.variant()).tls());
                return null;
            });
            return new Local(p, port, log);
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /**
     * A subject process on {@code host}, started by its agent. A TLS variant gets {@code certificate}
     * (issued by the runner's throw-away CA for {@link #altNames} of the host), sent to the agent with
     * the launch.
     *
     * @throws AgentException when the agent cannot be reached or refuses (no {@code --allow-subjects},
     *                        busy, no such subject in its checkout, another Loadlab version): the
     *                        experiment cannot go on
     * @throws SubjectException when the subject fails to build, start or become ready there, or listens
     *                          at a host the certificate does not name
     */
    static Server remote(SubjectHost host, Plan.Instance inst, Optional<ThrowawayCa.ServerFiles> certificate,
                         Duration ready, Measurement.Waits waits) {
        boolean tls = ServedProtocol.of(inst.variant()).tls();
        if (tls && certificate.isEmpty()) {
            throw new SubjectException("subject " + inst.label() + " serves TLS, but no certificate was made for "
                    + host.address().host());
        }
        RemoteSubject s = waits.interruptibly(() -> RemoteSubject.start(host, inst.subject().name(), inst.variant(),
                tls ? certificate : Optional.empty(), ready));
        if (tls && !altNames(host).contains(ThrowawayCa.altName(s.host()))) {
            s.close();
            throw new SubjectException("subject " + inst.label() + " listens at " + s.host() + " (the agent's --listen"
                    + " host), which its certificate for --subject-host " + host.address().host() + " does not name:"
                    + " give --subject-host " + s.host() + ":" + host.address().port());
        }
        return new Remote(s, inst.label());
    }

    /**
     * What the server certificate of subjects on {@code host} names: the host as {@code --subject-host}
     * gives it (an IP SAN for an address, a DNS SAN for a name), which the engine connects to, sends as SNI
     * (for a name) and checks.
     */
    static List<String> altNames(SubjectHost host) {
        return List.of(ThrowawayCa.altName(host.address().host()));
    }

    /** A subject process on this host. */
    private record Local(SubjectProcess p, int port, Path log) implements Server {
        @Override
        public String host() {
            return "127.0.0.1";
        }

        @Override
        public Duration age() {
            return p.handle().info().startInstant().map(t -> Duration.between(t, java.time.Instant.now()))
                    .filter(d -> !d.isNegative()).orElse(Duration.ZERO);
        }

        @Override
        public boolean isAlive() {
            return p.isAlive();
        }

        @Override
        public Optional<Integer> exitCode() {
            return p.exitCode();
        }

        @Override
        public String logTail(int lines) {
            return LogTail.of(log, lines);
        }

        @Override
        public Server.Sampler sampler(List<Integer> cpus) {
            ServerSampler s = new ServerSampler(p.handle(), cpus);
            return new Server.Sampler() {
                @Override
                public void windowStarted() {
                    s.windowStarted();
                }

                @Override
                public OptionalDouble serverCompilerSeconds() {
                    return s.serverCompilerSeconds();
                }

                @Override
                public void windowEnded() {
                    s.windowEnded();
                }

                @Override
                public ServerSampler.Window reading() {
                    return s.reading();
                }
            };
        }

        @Override
        public void close() {
            p.close();
        }
    }

    /**
     * A subject process on a subject host: each question goes to its agent. A lost agent makes the
     * subject count as ended, with the loss as its log's tail, so that the run is not counted.
     */
    private static final class Remote implements Server {
        private final RemoteSubject s;
        private final String label;
        private final long readyNanos = System.nanoTime();
        private RemoteSubject.State last;

        Remote(RemoteSubject s, String label) {
            this.s = s;
            this.label = label;
            this.last = new RemoteSubject.State(true, Optional.empty(), ServerSampler.Window.NONE, "");
        }

        @Override
        public String host() {
            return s.host();
        }

        @Override
        public int port() {
            return s.port();
        }

        @Override
        public Duration age() {
            return Duration.ofNanos(System.nanoTime() - readyNanos);
        }

        @Override
        public boolean isAlive() {
            if (last.alive()) {
                last = ask(s::state);
            }
            return last.alive();
        }

        @Override
        public Optional<Integer> exitCode() {
            return last.exitCode();
        }

        @Override
        public String logTail(int lines) {
            List<String> all = last.logTail().lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }

        /** The window sampled on the subject's host, over that whole machine (nothing is pinned there). */
        @Override
        public Server.Sampler sampler(List<Integer> cpus) {
            return new Server.Sampler() {
                private ServerSampler.Window window = ServerSampler.Window.NONE;
                private boolean started;

                @Override
                public void windowStarted() {
                    started = ask(() -> {
                        s.windowStarted();
                        return last;
                    }).alive();
                }

                @Override
                public void windowEnded() {
                    if (started) {
                        last = ask(s::windowEnded);
                        window = last.window();
                    }
                }

                @Override
                public ServerSampler.Window reading() {
                    return window;
                }
            };
        }

        private RemoteSubject.State ask(java.util.function.Supplier<RemoteSubject.State> q) {
            try {
                return q.get();
            } catch (AgentException e) {
                last = new RemoteSubject.State(false, Optional.empty(), ServerSampler.Window.NONE,
                        "(subject " + label + " on " + s.agent() + " is out of reach: " + e.getMessage() + ")");
                return last;
            }
        }

        @Override
        public void close() {
            s.close();
        }
    }
}
