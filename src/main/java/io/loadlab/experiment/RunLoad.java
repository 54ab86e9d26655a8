package io.loadlab.experiment;

import io.loadlab.load.LoadModel;
import io.loadlab.load.Warmup;
import io.loadlab.subject.SubjectManifest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The load of each run of an experiment, whichever engine makes it: how long it is measured after
 * which warm-up, with how many connections and threads, as a closed loop, at a fixed rate or at a
 * latency sweep's rates. {@link Measurement} turns it into each run's {@link io.loadlab.load.LoadSpec}.
 *
 * @param duration    measured window of each run
 * @param warmup      load before each window, not measured: a fixed time, or until the throughput is
 *                    steady (bounds widened by a subject's manifest, see {@link #warmupFor})
 * @param cooldown    pause between runs
 * @param connections connections per run
 * @param threads     engine threads per run; 0 = one per load CPU
 * @param rate        fixed rate in requests/s; empty for the closed loop
 * @param paceSlack   at a fixed rate (and in a sweep's fixed-rate windows), the built-in engine's wake-up
 *                    slack: how long past its due time a request may wait ({@code LoadModel.FixedRate})
 * @param streams     HTTP/2 streams per connection in the h2 variants' runs (1 = the same concurrency
 *                    as HTTP/1.1 with the same connections)
 * @param sweep       a latency sweep: each subject and workload measured at fixed rates (shares of its
 *                    capacity, absolute rates) instead of one closed-loop window; built-in engine only
 */
public record RunLoad(Duration duration, Warmup warmup, Duration cooldown, int connections, int threads,
                      OptionalDouble rate, Duration paceSlack, int streams, Optional<Sweep> sweep) {

    /**
     * {@code sweep} may be {@code null} for none.
     *
     * @throws ExperimentException naming each invalid field
     */
    public RunLoad {
        List<String> problems = new ArrayList<>();
        if (duration == null || duration.toMillis() < 100) {
            problems.add("duration: must be at least 100ms, got " + duration);
        }
        if (warmup == null) {
            problems.add("warmup: required (a duration, or auto)");
        }
        if (cooldown == null || cooldown.isNegative()) {
            problems.add("cooldown: must be zero or positive");
        }
        if (connections < 1) {
            problems.add("connections: must be at least 1, got " + connections);
        }
        if (threads < 0) {
            problems.add("threads: must be 0 (one per load CPU) or more, got " + threads);
        }
        rate.ifPresent(r -> {
            if (!(r > 0)) {
                problems.add("rate: must be positive, got " + r);
            }
        });
        if (paceSlack == null || paceSlack.isNegative()
                || paceSlack.compareTo(LoadModel.FixedRate.MAX_PACE_SLACK) > 0) {
            problems.add("pace-slack: must be between 0 and 100ms, got " + paceSlack);
        }
        if (streams < 1) {
            problems.add("streams: must be at least 1, got " + streams);
        }
        sweep = sweep == null ? Optional.empty() : sweep;
        if (sweep.isPresent() && rate.isPresent()) {
            problems.add("rate: a latency sweep sets the rate of each window; drop --rate");
        }
        ExperimentSpec.refuse(problems);
    }

    /**
     * The warm-up of one subject's runs: a fixed warm-up as given; a steady-state warm-up with its
     * bounds widened to the manifest's own, so that a JIT server that needs longer gets it and a
     * user asking for longer gets that.
     */
    public Warmup warmupFor(SubjectManifest manifest) {
        return warmupFor(manifest, Duration.ZERO);
    }

    /**
     * The same for a run on a subject process that has been running for {@code processAge}. A
     * manifest's bounds say how long the server's JIT needs from its start (java-httpserver's plateau
     * before C2), so a later workload of the same process, loaded all along since, waits only for what
     * is left of them; the experiment's own bounds always hold.
     */
    public Warmup warmupFor(SubjectManifest manifest, Duration processAge) {
        if (!(warmup instanceof Warmup.Steady st) || manifest.warmup().isEmpty()) {
            return warmup;
        }
        SubjectManifest.WarmupBounds b = manifest.warmup().get();
        Duration bMin = b.min().minus(processAge);
        Duration bMax = b.max().minus(processAge);
        Duration min = st.min().compareTo(bMin) >= 0 ? st.min() : bMin;
        Duration max = st.max().compareTo(bMax) >= 0 ? st.max() : bMax;
        return new Warmup.Steady(min, max.compareTo(min) >= 0 ? max : min);
    }
}
