package io.loadlab.experiment;

import static io.loadlab.data.RunRow.num;

import io.loadlab.data.RunRow;
import io.loadlab.engine.ExternalRun;
import io.loadlab.load.ErrorCounts;
import io.loadlab.load.LoadResult;
import io.loadlab.subject.ProcessTreeStats;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/** Turns a run's outcome into its {@code runs.csv} row. */
final class RunRows {

    private RunRows() {
    }

    /** The columns every row has: what was planned. */
    static Map<String, String> planned(ExperimentSpec spec, Plan.Run run, int threads, String loadCpus,
                                       String serverCpus) {
        Map<String, String> v = new HashMap<>();
        v.put("experiment", spec.name());
        v.put("run_id", Integer.toString(run.runId()));
        v.put("round", Integer.toString(run.round()));
        v.put("position", Integer.toString(run.position()));
        v.put("subject", run.instance().subject().name());
        v.put("variant", run.instance().variantLabel());
        v.put("workload", run.workload().name());
        v.put("engine", run.engine().label());
        v.put("connections", Integer.toString(spec.connections()));
        v.put("threads", Integer.toString(threads));
        v.put("target_rps", spec.rate().isPresent() ? num(spec.rate().getAsDouble()) : "");
        v.put("load_model", spec.rate().isPresent() ? "fixed_rate" : "closed_loop");
        v.put("load_cpus", loadCpus);
        v.put("server_cpus", serverCpus);
        v.put("started_at", Instant.now().toString());
        return v;
    }

    /** A measured run; {@code failure} set when the subject died meanwhile (status failed). */
    static RunRow measured(Map<String, String> v, LoadResult r, ServerSampler sampler, Optional<String> failure) {
        Optional<ProcessTreeStats.Reading> server = sampler.window();
        v.put("warmup_s", num(round3(r.warmupSeconds())));
        v.put("steady", r.steady().map(String::valueOf).orElse(""));
        if (r.targetRps().isPresent()) {
            v.put("missed", Long.toString(r.missed()));
        }
        machine(v, sampler);
        v.put("duration_s", num(r.durationSeconds()));
        v.put("requests", Long.toString(r.requests()));
        v.put("rps", num(r.rps()));
        v.put("bytes_read", Long.toString(r.bytesRead()));
        v.put("bytes_written", Long.toString(r.bytesWritten()));
        ErrorCounts e = r.errors();
        v.put("errors_connect", Long.toString(e.connect()));
        v.put("errors_read", Long.toString(e.read()));
        v.put("errors_write", Long.toString(e.write()));
        v.put("errors_timeout", Long.toString(e.timeout()));
        v.put("errors_status", Long.toString(e.status()));
        v.put("errors_protocol", Long.toString(e.protocol()));
        Histogram h = r.latency();
        if (h.getTotalCount() > 0) {
            v.put("lat_mean_us", num(round3(h.getMean())));
            v.put("lat_stdev_us", num(round3(h.getStdDeviation())));
            v.put("lat_p50_us", Long.toString(h.getValueAtPercentile(50)));
            v.put("lat_p75_us", Long.toString(h.getValueAtPercentile(75)));
            v.put("lat_p90_us", Long.toString(h.getValueAtPercentile(90)));
            v.put("lat_p99_us", Long.toString(h.getValueAtPercentile(99)));
            v.put("lat_p999_us", Long.toString(h.getValueAtPercentile(99.9)));
            v.put("lat_max_us", Long.toString(h.getMaxValue()));
        }
        r.serviceTime().filter(s -> s.getTotalCount() > 0).ifPresent(s -> {
            v.put("svc_p50_us", Long.toString(s.getValueAtPercentile(50)));
            v.put("svc_p90_us", Long.toString(s.getValueAtPercentile(90)));
            v.put("svc_p99_us", Long.toString(s.getValueAtPercentile(99)));
            v.put("svc_p999_us", Long.toString(s.getValueAtPercentile(99.9)));
        });
        server.ifPresent(s -> {
            v.put("server_cpu_user_s", num(round3(s.userSeconds())));
            v.put("server_cpu_sys_s", num(round3(s.systemSeconds())));
            v.put("server_cpu_s", num(round3(s.cpuSeconds())));
            if (s.cpuSeconds() > 0) {
                v.put("rps_per_server_cpu_s", num(round3(r.requests() / s.cpuSeconds())));
            }
            if (s.peakRssBytes() > 0) {
                v.put("server_peak_rss_bytes", Long.toString(s.peakRssBytes()));
            }
        });
        v.put("load_cpu_s", num(round3(r.loadCpuSeconds())));
        if (r.loadCpuSeconds() > 0) {
            v.put("rps_per_load_cpu_s", num(round3(r.rpsPerLoadCpuSecond())));
        }
        v.put("process_cpu_s", num(round3(r.processCpuSeconds())));
        v.put("load_bound", Boolean.toString(r.loadBound()));
        v.put("status", failure.isPresent() ? "failed" : "ok");
        v.put("error", failure.map(RunRows::oneLine).orElse(""));
        return new RunRow(v);
    }

    /**
     * A run of wrk or h2load: what the tool reported (columns it does not report stay empty), the
     * tool's CPU time as the load CPU, and the server's CPU over the tool's run.
     *
     * @param loadCpus CPUs the tool could use, for the load-bound flag
     */
    static RunRow external(Map<String, String> v, ExternalRun r, int loadCpus, ServerSampler sampler,
                           Optional<String> failure) {
        Optional<ProcessTreeStats.Reading> server = sampler.window();
        machine(v, sampler);
        for (Map.Entry<String, String> e : r.reported().values().entrySet()) {
            // The plan's labels and settings win over what the tool printed about itself.
            v.putIfAbsent(e.getKey(), e.getValue());
        }
        v.put("engine", r.reported().tool().label());
        long requests = parseLong(v.get("requests"));
        server.ifPresent(s -> {
            v.put("server_cpu_user_s", num(round3(s.userSeconds())));
            v.put("server_cpu_sys_s", num(round3(s.systemSeconds())));
            v.put("server_cpu_s", num(round3(s.cpuSeconds())));
            if (s.cpuSeconds() > 0 && requests >= 0) {
                v.put("rps_per_server_cpu_s", num(round3(requests / s.cpuSeconds())));
            }
            if (s.peakRssBytes() > 0) {
                v.put("server_peak_rss_bytes", Long.toString(s.peakRssBytes()));
            }
        });
        double cpu = r.toolCpuSeconds();
        if (Double.isFinite(cpu)) {
            v.put("load_cpu_s", num(round3(cpu)));
            v.put("process_cpu_s", num(round3(cpu)));
            if (cpu > 0 && requests >= 0) {
                v.put("rps_per_load_cpu_s", num(round3(requests / cpu)));
            }
            v.put("load_bound", Boolean.toString(r.wallSeconds() > 0
                    && cpu >= LoadResult.LOAD_BOUND_SHARE * loadCpus * r.wallSeconds()));
        }
        v.put("status", failure.isPresent() ? "failed" : "ok");
        v.put("error", failure.map(RunRows::oneLine).orElse(""));
        return new RunRow(v);
    }

    /** The window's noise: other programs' CPU on the CPUs in use, and the hypervisor's steal. */
    private static void machine(Map<String, String> v, ServerSampler sampler) {
        sampler.noiseCpuSeconds().ifPresent(n -> v.put("noise_cpu_s", num(round3(n))));
        sampler.stealSeconds().ifPresent(n -> v.put("steal_s", num(round3(n))));
    }

    private static long parseLong(String s) {
        try {
            return s == null || s.isEmpty() ? -1 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
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
