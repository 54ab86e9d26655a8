package io.loadlab;

import io.loadlab.data.GroupLatency;
import io.loadlab.data.Results;
import io.loadlab.data.RunColumn;
import io.loadlab.stats.Compared;
import io.loadlab.stats.Comparison;
import io.loadlab.stats.Stats;
import io.loadlab.stats.Warning;
import io.loadlab.stats.Warnings;
import java.util.List;
import org.HdrHistogram.Histogram;
import tech.tablesaw.api.Table;

/**
 * Loaded experiments with the common questions answered in one call, for JShell and notebooks:
 * <pre>{@code
 * var results = Loadlab.load("data/sample");
 * results.compare("go-nethttp")                 // one sentence per subject and workload
 * results.summary("rps_per_server_cpu_s")       // mean, CI and CV per group
 * results.latency("java-netty", "json").p(99.9) // µs, over every request of every round
 * }</pre>
 * Every figure comes from the same classes as {@code loadlab compare} ({@link Comparison},
 * {@link Stats}, {@link Warnings}) with their default options; {@link #results()} gives the
 * {@link Results} for anything else. A subject, variant, workload or metric that names nothing is
 * an error listing the names there are. Thread-safe as {@link Results} is.
 */
public final class Analysis {

    private final Results results;

    /** @param results experiments already loaded, such as {@code Results.load(Path.of("data/sample"))} */
    public Analysis(Results results) {
        if (results == null) {
            throw new IllegalArgumentException("give loaded results: Results.load(Path.of(\"data/sample\"))");
        }
        this.results = results;
    }

    /** The loaded experiments, for the questions this class does not answer. */
    public Results results() {
        return results;
    }

    /** Every run (a copy): {@link Results#runs()}. */
    public Table runs() {
        return results.runs();
    }

    /**
     * Every subject against {@code baseline} on requests per second.
     *
     * @param baseline a subject, or {@code subject [variant]}
     * @throws io.loadlab.stats.StatsException for a baseline with no successful run, listing the subjects
     */
    public Compared compare(String baseline) {
        return compare(baseline, RunColumn.RPS.id());
    }

    /**
     * Every subject against {@code baseline} on {@code metric}, such as {@code rps_per_server_cpu_s}
     * or {@code lat_p99_us}.
     *
     * @throws io.loadlab.stats.StatsException for an unknown metric or baseline, listing what there is
     */
    public Compared compare(String baseline, String metric) {
        Table runs = results.runs();
        return new Compared(metric, baseline, Comparison.rows(runs, metric, baseline), Warnings.find(runs, metric));
    }

    /**
     * Mean, 95% CI, SD and CV over rounds per subject, variant and workload: {@link Stats#summarize}.
     *
     * @throws io.loadlab.stats.StatsException for an unknown metric, listing the numeric columns
     */
    public Table summary(String metric) {
        return Stats.summarize(results.runs(), metric);
    }

    /** The warnings on the runs for {@code metric}: {@link Warnings#find(Table, String)}. */
    public List<Warning> warnings(String metric) {
        return Warnings.find(results.runs(), metric);
    }

    /**
     * The latency of a subject with one variant on a workload: {@link Results#latency(String, String)}.
     *
     * @throws io.loadlab.data.DataException for a name that matches nothing, listing the names there are
     */
    public GroupLatency latency(String subject, String workload) {
        return results.latency(subject, workload);
    }

    /** The merged histogram of one variant of a subject: {@link Results#latency(String, String, String)}. */
    public Histogram latency(String subject, String variant, String workload) {
        return results.latency(subject, variant, workload);
    }

    /** Latency percentiles per group from the merged histograms: {@link Results#latencyPercentiles()}. */
    public Table latencyPercentiles() {
        return results.latencyPercentiles();
    }

    /** What is loaded, in one line, as {@link Results#toString()}. */
    @Override
    public String toString() {
        return results.toString();
    }
}
