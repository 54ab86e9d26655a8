package io.loadlab.cli;

import io.loadlab.agent.AgentEngine;
import io.loadlab.agent.AgentSet;
import io.loadlab.host.Cpus;
import io.loadlab.host.MachineCpu;
import io.loadlab.time.Durations;
import io.loadlab.load.Hlog;
import io.loadlab.load.NettyLoad;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadResult;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.RequestTemplate;
import io.loadlab.load.Target;
import io.loadlab.load.Transport;
import io.loadlab.load.Warmup;
import io.loadlab.load.summary.JsonSummary;
import io.loadlab.load.summary.TextSummary;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadlab load URL}: one run of the built-in engine, summarised like wrk or oha. */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 100,
        description = {"Load one URL with the built-in engine; print latency, throughput, errors and engine CPU.",
                "",
                "The path may hold {rand:LO-HI} (random integer) and {seq} (unique number) substitutions."},
        footer = {"", "Examples:",
                "  loadlab load -c 64 -d 10s http://127.0.0.1:8080/plaintext",
                "  loadlab load -R 1000 -c 16 -d 30s --hlog run.hlog http://127.0.0.1:8080/json",
                "  loadlab load -X PUT --body-size 1024 -n 10000 'http://127.0.0.1:8080/kv/{rand:0-999}'",
                "  loadlab load -X POST --body-file order.json -H 'Content-Type: application/json' http://localhost/orders",
                "  loadlab load --no-keepalive -c 8 -d 5s http://127.0.0.1:8080/plaintext",
                "  loadlab load --h2 -m 10 --cacert ca.pem https://localhost:8443/plaintext",
                "  loadlab load --h2c -m 100 -c 8 http://127.0.0.1:8080/json",
                "", "Flags of wrk, oha, hey and ab that Loadlab spells otherwise (see each option above):",
                "  oha/hey -z D: -d D       oha -q / wrk2 -R: -R    hey -q (per worker): -R (total)",
                "  oha/hey -d TEXT: --body  oha/hey -D FILE, ab -p: --body-file  -T TYPE: -H 'Content-Type: TYPE'",
                "  oha/hey -m: -X           oha/hey -t: --timeout   ab -t: -d    ab -k: the default",
                "  oha --disable-keepalive, hey -disable-keepalive, ab without -k: --no-keepalive",
                "  wrk --latency: always (the percentiles are printed on every run)  wrk -s SCRIPT: none",
                "  oha --http2: --h2 or --h2c, and its -p (streams): -m",
                "", "Exit codes: 0 done, 1 the run failed, 2 a usage error."})
final class LoadCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Parameters(index = "0", paramLabel = "URL", description = "http[s]://HOST:PORT/PATH")
    String url;

    @Option(names = {"-c", "--connections"}, paramLabel = "N",
            description = {"connections in total, as wrk's and oha's -c; hey's -c counts workers, ab's concurrent",
                    "requests (default: ${DEFAULT-VALUE})"})
    int connections = LoadSpec.DEFAULT_CONNECTIONS;

    @Option(names = {"-t", "--threads"}, paramLabel = "N",
            description = {"event-loop threads, as wrk's -t; oha's and hey's -t is the request timeout (here",
                    "--timeout), ab's -t a time limit (here -d) (default: ${DEFAULT-VALUE})"})
    int threads = 1;

    @Option(names = {"-d", "--duration"}, paramLabel = "D",
            description = {"measured duration: 500ms, 10s, 2m, as wrk's -d and oha's and hey's -z; oha's and",
                    "hey's -d is the request body (here --body) (default: 10s unless -n is given)"})
    String duration;

    @Option(names = {"-n", "--requests"}, paramLabel = "N",
            description = {"stop after N requests in total, as oha's, hey's and ab's -n (whose default is 200",
                    "or 1; here there is none: the run lasts -d)"})
    Long requests;

    @Option(names = {"-R", "--rate"}, paramLabel = "RPS",
            description = {"fixed rate in requests/s over all connections, as wrk2's -R and oha's -q; hey's -q",
                    "is per worker; latency from due time, as wrk2 and oha --latency-correction (default: closed loop)"})
    Double rate;

    @Option(names = "--pace-slack", paramLabel = "D",
            description = {"with -R: send on a grid of D: the requests due in the same D go out together at its",
                    "end, on one wake-up of the event loop (less CPU, as h2load's millisecond timers); latency,",
                    "measured from the due time, can only rise, by at most D, e.g. 1ms (default: 0, each",
                    "request at its due time)"})
    String paceSlack;

    @Option(names = "--warmup", paramLabel = "D|auto",
            description = {"load before measuring, excluded: 'auto' runs until the throughput is steady",
                    "(see --warmup-max), a duration such as 3s runs exactly that, 0s none",
                    "(default: auto; none with -n)"})
    String warmup;

    @Option(names = "--warmup-max", paramLabel = "D",
            description = "longest steady-state warm-up; a run still not steady then is measured and flagged (default: ${DEFAULT-VALUE})")
    String warmupMax = "10s";

    @Option(names = "--seed", paramLabel = "N", description = "seed of the {rand:LO-HI} keys (default: ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--timeout", paramLabel = "D", description = "request timeout (default: ${DEFAULT-VALUE})")
    String timeout = "10s";

    @Option(names = "--connect-timeout", paramLabel = "D", description = "connect timeout (default: ${DEFAULT-VALUE})")
    String connectTimeout = "5s";

    @Option(names = {"-X", "--method"}, paramLabel = "METHOD",
            description = {"HTTP method, as curl's -X; oha's and hey's -m (here -m is HTTP/2 streams)",
                    "(default: ${DEFAULT-VALUE})"})
    String method = "GET";

    @Option(names = {"-H", "--header"}, paramLabel = "'K: V'",
            description = {"extra request header, repeatable, as in wrk, oha, hey and ab (their -T content type is",
                    "-H 'Content-Type: ...' here; none is sent unless given)"})
    List<String> headers = new ArrayList<>();

    @Option(names = "--body-size", paramLabel = "BYTES", description = "a generated body of BYTES letters a-z (default: 0)")
    int bodySize;

    @Option(names = "--body", paramLabel = "TEXT",
            description = {"request body, its UTF-8 bytes, sent with Content-Length (oha's and hey's -d); give its",
                    "type with -H 'Content-Type: ...'"})
    String body;

    @Option(names = "--body-file", paramLabel = "FILE",
            description = {"request body, the file's bytes, at most 64 MiB (oha's and hey's -D, ab's -p)"})
    Path bodyFile;

    @Option(names = "--no-keepalive",
            description = {"a new connection per request: each sends Connection: close and is closed after its",
                    "answer (oha's --disable-keepalive, hey's -disable-keepalive, ab without -k); HTTP/1.1 only.",
                    "Latency counts from the request's write, after the connect; the Connect line shows the",
                    "connects (default: connections are kept alive)"})
    boolean noKeepalive;

    @Option(names = "--pipeline", paramLabel = "N", description = "requests in flight per connection, closed loop: up to N, topped up once N/2 are answered (default: 1)")
    int pipeline = 1;

    @Option(names = "--transport", paramLabel = "T",
            description = "auto, epoll, io_uring or nio (default: ${DEFAULT-VALUE})")
    String transport = "auto";

    @Mixin
    ProtocolOptions protocol = new ProtocolOptions();

    @Option(names = "--json", description = "print the result as one JSON object")
    boolean json;

    @Option(names = "--hlog", paramLabel = "FILE", description = "write per-second latency histograms (HdrHistogram log)")
    Path hlog;

    @Option(names = "--tag", paramLabel = "TAG", description = "tag of the histograms in --hlog (default: ${DEFAULT-VALUE})")
    String tag = "load";

    @Mixin
    AgentOptions agentOptions = new AgentOptions();

    @Override
    public Integer call() throws IOException {
        LoadSpec spec = spec();
        if (hlog != null) {
            checkWritable(hlog);
        }
        Optional<AgentSet> agents = agentOptions.agentSet();
        if (agents.isPresent()) {
            // The rule is the agents' engine's, as in run --agents; its reason starts "agents run ...".
            new AgentEngine(agents.get()).cannotSpeak(spec.protocol(), spec.request().target().tls()).ifPresent(why -> {
                throw new CliException("--" + why + ": drop --agents, or --h2/--h2c and https://", Main.EXIT_USAGE);
            });
            return new RemoteLoad(commandSpec.commandLine().getOut(), json, hlog, tag).run(agents.get(), spec);
        }
        LoadResult result = NettyLoad.run(spec, new LoadListener() {
            // The machine's CPU lines of the CPUs this JVM may use, at the window's ends: its steal.
            private Optional<MachineCpu.Reading> from = Optional.empty();
            private Optional<MachineCpu.Reading> to = Optional.empty();

            @Override
            public void started() {
                if (!json) {
                    commandSpec.commandLine().getOut().print(TextSummary.header(spec));
                    commandSpec.commandLine().getOut().flush();
                }
            }

            @Override
            public void windowStarted() {
                from = MachineCpu.read(Cpus.allowed());
            }

            @Override
            public void windowEnded() {
                to = MachineCpu.read(Cpus.allowed());
            }

            @Override
            public OptionalDouble stealSeconds() {
                return MachineCpu.stealBetween(from, to);
            }
        });
        if (hlog != null) {
            try (OutputStream out = Files.newOutputStream(hlog)) {
                Hlog.write(result, tag, out);
            }
        }
        commandSpec.commandLine().getOut().println(json ? JsonSummary.format(result) : TextSummary.format(result));
        if (!json && hlog != null) {
            commandSpec.commandLine().getOut().println("Latency log written to " + hlog);
        }
        commandSpec.commandLine().getOut().flush();
        if (result.requests() == 0) {
            throw new CliException("no request was answered: see the errors above", Main.EXIT_FAILED);
        }
        return 0;
    }

    LoadSpec spec() {
        if (rate == null && paceSlack != null) {
            throw new CliException("--pace-slack applies to a fixed rate only; add -R or drop it", Main.EXIT_USAGE);
        }
        LoadModel model = rate == null ? new LoadModel.ClosedLoop(pipeline) : paceSlack == null
                ? new LoadModel.FixedRate(rate) : new LoadModel.FixedRate(rate, Durations.parse(paceSlack));
        if (rate != null && pipeline != 1) {
            throw new CliException("--pipeline applies to the closed loop only; drop it or drop -R", Main.EXIT_USAGE);
        }
        Transport t;
        try {
            t = Transport.valueOf(transport.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new CliException("unknown transport '" + transport + "': use auto, epoll, io_uring or nio",
                    Main.EXIT_USAGE);
        }
        LoadSpec.Builder b = LoadSpec.builder()
                .request(request())
                .model(model)
                .connections(connections)
                .threads(threads)
                .warmup(warmup == null && requests != null ? Warmup.NONE
                        : Warmup.parse(warmup == null ? Warmup.AUTO : warmup, Durations.parse(warmupMax)))
                .seed(seed)
                .requestTimeout(Durations.parse(timeout))
                .connectTimeout(Durations.parse(connectTimeout))
                .transport(t);
        protocol.apply(b);
        if (duration != null) {
            b.duration(Durations.parse(duration));
        }
        if (requests != null) {
            b.requests(requests);
        }
        return b.build();
    }

    /** The request of -X, -H, the body options and --no-keepalive. */
    private RequestTemplate request() {
        if ((body != null ? 1 : 0) + (bodyFile != null ? 1 : 0) + (bodySize != 0 ? 1 : 0) > 1) {
            throw new CliException("--body, --body-file and --body-size each give the body; keep one", Main.EXIT_USAGE);
        }
        List<String> all = new ArrayList<>(headers);
        if (noKeepalive) {
            if (headers.stream().anyMatch(h -> h.regionMatches(true, 0, "connection:", 0, 11))) {
                throw new CliException("--no-keepalive sends Connection: close; drop the -H 'Connection: ...'",
                        Main.EXIT_USAGE);
            }
            all.add("Connection: close");
        }
        Target target = Target.parse(url);
        if (body != null) {
            return RequestTemplate.withBody(method, target, all, body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (bodyFile != null) {
            return RequestTemplate.withBody(method, target, all, RequestTemplate.readBody(bodyFile));
        }
        return new RequestTemplate(method, target, all, bodySize);
    }

    private static void checkWritable(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new CliException("cannot write --hlog " + file + ": folder " + dir + " does not exist",
                    Main.EXIT_USAGE);
        }
        if (!Files.isWritable(dir) || (Files.exists(file) && !Files.isWritable(file))) {
            throw new CliException("cannot write --hlog " + file + ": permission denied", Main.EXIT_USAGE);
        }
    }

}
