package io.loadlab.experiment;

import static io.loadlab.data.RunRow.num;

import io.loadlab.data.RunColumn;
import io.loadlab.data.RunRow;
import io.loadlab.engine.EngineResult;
import io.loadlab.engine.Latency;
import io.loadlab.host.ProcessTreeStats;
import io.loadlab.subject.ServerSampler;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Turns a run's outcome into its {@code runs.csv} row. */
final class RunRows {

    private RunRows() {
    }

    /** The columns every row has: what was planned, with the load the run offers (its rate, a sweep's columns). */
    static Map<String, String> planned(ExperimentSpec spec, Plan.Run run, Offers.Offer offer, int threads,
                                       String loadCpus, String serverCpus) {
        Map<String, String> v = new HashMap<>();
        v.put(RunColumn.EXPERIMENT.id(), spec.name());
        v.put(RunColumn.RUN_ID.id(), Integer.toString(run.runId()));
        v.put(RunColumn.ROUND.id(), Integer.toString(run.round()));
        v.put(RunColumn.POSITION.id(), Integer.toString(run.position()));
        v.put(RunColumn.SUBJECT.id(), run.instance().subject().name());
        v.put(RunColumn.VARIANT.id(), run.instance().variantLabel());
        v.put(RunColumn.WORKLOAD.id(), run.workload().name());
        v.put(RunColumn.ENGINE.id(), run.engine().label());
        v.put(RunColumn.CONNECTIONS.id(), Integer.toString(spec.load().connections()));
        v.put(RunColumn.THREADS.id(), Integer.toString(threads));
        v.put(RunColumn.TARGET_RPS.id(), offer.rate().isPresent() ? num(offer.rate().getAsDouble()) : "");
        v.put(RunColumn.LOAD_MODEL.id(), (offer.rate().isPresent() ? RunColumn.LoadModel.FIXED_RATE : RunColumn.LoadModel.CLOSED_LOOP).value());
        v.putAll(offer.columns());
        v.put(RunColumn.LOAD_CPUS.id(), loadCpus);
        boolean attached = run.instance().subject().manifest().attached().isPresent();
        v.put(RunColumn.SERVER_CPUS.id(), attached ? "" : serverCpus);
        v.put(RunColumn.SERVER_LAUNCH.id(), (attached ? RunColumn.ServerLaunch.ATTACHED : RunColumn.ServerLaunch.STARTED).value());
        v.put(RunColumn.STARTED_AT.id(), Instant.now().toString());
        return v;
    }

    /**
     * A measured run, whichever engine made it; {@code failure} set when the subject died meanwhile
     * (status failed). Figures the engine did not measure stay empty; {@code server} is the subject's
     * window, read on whichever host it runs.
     */
    static RunRow of(Map<String, String> v, EngineResult r, ServerSampler.Window server, Optional<String> failure) {
        v.put(RunColumn.ENGINE.id(), r.engine());
        v.put(RunColumn.DURATION_S.id(), num(r.durationSeconds()));
        v.put(RunColumn.REQUESTS.id(), Long.toString(r.requests()));
        r.rps().ifPresent(x -> v.put(RunColumn.RPS.id(), num(x)));
        if (RunColumn.SweepRole.CAPACITY.value().equals(v.get(RunColumn.SWEEP_ROLE.id()))) {
            // A sweep's capacity run measures the capacity its round's shares are taken of.
            r.rps().ifPresent(x -> v.put(RunColumn.CAPACITY_RPS.id(), num(x)));
        }
        r.bytesRead().ifPresent(x -> v.put(RunColumn.BYTES_READ.id(), Long.toString(x)));
        r.bytesWritten().ifPresent(x -> v.put(RunColumn.BYTES_WRITTEN.id(), Long.toString(x)));
        r.errors().forEach((category, n) -> v.put("errors_" + category, Long.toString(n)));
        latency(v, r.latency());
        r.serviceTime().ifPresent(s -> {
            s.p50().ifPresent(x -> v.put(RunColumn.SVC_P50_US.id(), Long.toString(x)));
            s.p90().ifPresent(x -> v.put(RunColumn.SVC_P90_US.id(), Long.toString(x)));
            s.p99().ifPresent(x -> v.put(RunColumn.SVC_P99_US.id(), Long.toString(x)));
            s.p999().ifPresent(x -> v.put(RunColumn.SVC_P999_US.id(), Long.toString(x)));
        });
        v.put(RunColumn.WARMUP_S.id(), num(round3(r.warmup().seconds())));
        v.put(RunColumn.STEADY.id(), r.warmup().steady().map(String::valueOf).orElse(""));
        r.warmup().cutShort().ifPresent(why -> v.put(RunColumn.WARMUP_CUT_SHORT.id(), why));
        r.missed().ifPresent(m -> v.put(RunColumn.MISSED.id(), Long.toString(m)));
        server(v, server.server(), r.requests());
        machine(v, server);
        r.loadCpuSeconds().ifPresent(cpu -> {
            v.put(RunColumn.LOAD_CPU_S.id(), num(round3(cpu)));
            if (cpu > 0) {
                v.put(RunColumn.RPS_PER_LOAD_CPU_S.id(), num(round3(r.requests() / cpu)));
            }
        });
        r.processCpuSeconds().ifPresent(cpu -> v.put(RunColumn.PROCESS_CPU_S.id(), num(round3(cpu))));
        r.loadBound().ifPresent(b -> v.put(RunColumn.LOAD_BOUND.id(), Boolean.toString(b)));
        v.put(RunColumn.STATUS.id(), (failure.isPresent() ? RunColumn.Status.FAILED : RunColumn.Status.OK).value());
        v.put(RunColumn.ERROR.id(), failure.map(RunRows::oneLine).orElse(""));
        r.protocol().ifPresent(p -> v.put(RunColumn.PROTOCOL.id(), p));
        return new RunRow(v);
    }

    private static void latency(Map<String, String> v, Latency l) {
        l.mean().ifPresent(x -> v.put(RunColumn.LAT_MEAN_US.id(), num(round3(x))));
        l.stdev().ifPresent(x -> v.put(RunColumn.LAT_STDEV_US.id(), num(round3(x))));
        l.p50().ifPresent(x -> v.put(RunColumn.LAT_P50_US.id(), Long.toString(x)));
        l.p75().ifPresent(x -> v.put(RunColumn.LAT_P75_US.id(), Long.toString(x)));
        l.p90().ifPresent(x -> v.put(RunColumn.LAT_P90_US.id(), Long.toString(x)));
        l.p99().ifPresent(x -> v.put(RunColumn.LAT_P99_US.id(), Long.toString(x)));
        l.p999().ifPresent(x -> v.put(RunColumn.LAT_P999_US.id(), Long.toString(x)));
        l.max().ifPresent(x -> v.put(RunColumn.LAT_MAX_US.id(), Long.toString(x)));
    }

    /** The subject's CPU over the window, throughput per server CPU-second, and its window peak RSS. */
    private static void server(Map<String, String> v, Optional<ProcessTreeStats.Reading> server, long requests) {
        server.ifPresent(s -> {
            v.put(RunColumn.SERVER_CPU_USER_S.id(), num(round3(s.userSeconds())));
            v.put(RunColumn.SERVER_CPU_SYS_S.id(), num(round3(s.systemSeconds())));
            v.put(RunColumn.SERVER_CPU_S.id(), num(round3(s.cpuSeconds())));
            if (s.cpuSeconds() > 0) {
                v.put(RunColumn.RPS_PER_SERVER_CPU_S.id(), num(round3(requests / s.cpuSeconds())));
            }
            if (s.peakRssBytes() > 0) {
                v.put(RunColumn.SERVER_PEAK_RSS_BYTES.id(), Long.toString(s.peakRssBytes()));
            }
        });
    }

    /** The window's noise: other programs' CPU on the CPUs in use, and the hypervisor's steal. */
    private static void machine(Map<String, String> v, ServerSampler.Window w) {
        w.noiseCpuSeconds().ifPresent(n -> v.put(RunColumn.NOISE_CPU_S.id(), num(round3(n))));
        w.stealSeconds().ifPresent(n -> v.put(RunColumn.STEAL_S.id(), num(round3(n))));
    }

    /** A run that could not be measured. */
    static RunRow failed(Map<String, String> v, String error) {
        v.put(RunColumn.STATUS.id(), RunColumn.Status.FAILED.value());
        v.put(RunColumn.ERROR.id(), oneLine(error));
        return new RunRow(v);
    }

    /** Error text on one CSV line: line breaks become " | ", long texts are cut. */
    static String oneLine(String s) {
        String one = s.replace("\r", "").replace("\n", " | ");
        return one.length() > 2000 ? one.substring(0, 2000) + "..." : one;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
