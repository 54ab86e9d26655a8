package io.loadlab.experiment;

import static io.loadlab.data.RunRow.num;

import io.loadlab.data.RunRow;
import io.loadlab.engine.EngineResult;
import io.loadlab.engine.Latency;
import io.loadlab.subject.ProcessTreeStats;
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
        v.put("experiment", spec.name());
        v.put("run_id", Integer.toString(run.runId()));
        v.put("round", Integer.toString(run.round()));
        v.put("position", Integer.toString(run.position()));
        v.put("subject", run.instance().subject().name());
        v.put("variant", run.instance().variantLabel());
        v.put("workload", run.workload().name());
        v.put("engine", run.engine().label());
        v.put("connections", Integer.toString(spec.load().connections()));
        v.put("threads", Integer.toString(threads));
        v.put("target_rps", offer.rate().isPresent() ? num(offer.rate().getAsDouble()) : "");
        v.put("load_model", offer.rate().isPresent() ? "fixed_rate" : "closed_loop");
        v.putAll(offer.columns());
        v.put("load_cpus", loadCpus);
        v.put("server_cpus", serverCpus);
        v.put("started_at", Instant.now().toString());
        return v;
    }

    /**
     * A measured run, whichever engine made it; {@code failure} set when the subject died meanwhile
     * (status failed). Figures the engine did not measure stay empty; {@code server} is the subject's
     * window, read on whichever host it runs.
     */
    static RunRow of(Map<String, String> v, EngineResult r, ServerSampler.Window server, Optional<String> failure) {
        v.put("engine", r.engine());
        v.put("duration_s", num(r.durationSeconds()));
        v.put("requests", Long.toString(r.requests()));
        r.rps().ifPresent(x -> v.put("rps", num(x)));
        if ("capacity".equals(v.get("sweep_role"))) {
            // A sweep's capacity run measures the capacity its round's shares are taken of.
            r.rps().ifPresent(x -> v.put("capacity_rps", num(x)));
        }
        r.bytesRead().ifPresent(x -> v.put("bytes_read", Long.toString(x)));
        r.bytesWritten().ifPresent(x -> v.put("bytes_written", Long.toString(x)));
        r.errors().forEach((category, n) -> v.put("errors_" + category, Long.toString(n)));
        latency(v, r.latency());
        r.serviceTime().ifPresent(s -> {
            s.p50().ifPresent(x -> v.put("svc_p50_us", Long.toString(x)));
            s.p90().ifPresent(x -> v.put("svc_p90_us", Long.toString(x)));
            s.p99().ifPresent(x -> v.put("svc_p99_us", Long.toString(x)));
            s.p999().ifPresent(x -> v.put("svc_p999_us", Long.toString(x)));
        });
        v.put("warmup_s", num(round3(r.warmup().seconds())));
        v.put("steady", r.warmup().steady().map(String::valueOf).orElse(""));
        r.missed().ifPresent(m -> v.put("missed", Long.toString(m)));
        server(v, server.server(), r.requests());
        machine(v, server);
        r.loadCpuSeconds().ifPresent(cpu -> {
            v.put("load_cpu_s", num(round3(cpu)));
            if (cpu > 0) {
                v.put("rps_per_load_cpu_s", num(round3(r.requests() / cpu)));
            }
        });
        r.processCpuSeconds().ifPresent(cpu -> v.put("process_cpu_s", num(round3(cpu))));
        r.loadBound().ifPresent(b -> v.put("load_bound", Boolean.toString(b)));
        v.put("status", failure.isPresent() ? "failed" : "ok");
        v.put("error", failure.map(RunRows::oneLine).orElse(""));
        r.protocol().ifPresent(p -> v.put("protocol", p));
        return new RunRow(v);
    }

    private static void latency(Map<String, String> v, Latency l) {
        l.mean().ifPresent(x -> v.put("lat_mean_us", num(round3(x))));
        l.stdev().ifPresent(x -> v.put("lat_stdev_us", num(round3(x))));
        l.p50().ifPresent(x -> v.put("lat_p50_us", Long.toString(x)));
        l.p75().ifPresent(x -> v.put("lat_p75_us", Long.toString(x)));
        l.p90().ifPresent(x -> v.put("lat_p90_us", Long.toString(x)));
        l.p99().ifPresent(x -> v.put("lat_p99_us", Long.toString(x)));
        l.p999().ifPresent(x -> v.put("lat_p999_us", Long.toString(x)));
        l.max().ifPresent(x -> v.put("lat_max_us", Long.toString(x)));
    }

    /** The subject's CPU over the window, throughput per server CPU-second, and its window peak RSS. */
    private static void server(Map<String, String> v, Optional<ProcessTreeStats.Reading> server, long requests) {
        server.ifPresent(s -> {
            v.put("server_cpu_user_s", num(round3(s.userSeconds())));
            v.put("server_cpu_sys_s", num(round3(s.systemSeconds())));
            v.put("server_cpu_s", num(round3(s.cpuSeconds())));
            if (s.cpuSeconds() > 0) {
                v.put("rps_per_server_cpu_s", num(round3(requests / s.cpuSeconds())));
            }
            if (s.peakRssBytes() > 0) {
                v.put("server_peak_rss_bytes", Long.toString(s.peakRssBytes()));
            }
        });
    }

    /** The window's noise: other programs' CPU on the CPUs in use, and the hypervisor's steal. */
    private static void machine(Map<String, String> v, ServerSampler.Window w) {
        w.noiseCpuSeconds().ifPresent(n -> v.put("noise_cpu_s", num(round3(n))));
        w.stealSeconds().ifPresent(n -> v.put("steal_s", num(round3(n))));
    }

    /** A run that could not be measured. */
    static RunRow failed(Map<String, String> v, String error) {
        v.put("status", "failed");
        v.put("error", oneLine(error));
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
