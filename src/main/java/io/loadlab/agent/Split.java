package io.loadlab.agent;

import io.loadlab.load.LoadModel;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.Warmup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one run's load over agents by weight, as Hyperfoil's slices and k6's execution segments
 * do: connections and a request count by largest remainder (every agent at least one connection), a
 * fixed rate in exact proportion. Each agent keeps the run's threads (at most its connections), and
 * its own seed, so that agents do not send the same keys in step.
 */
final class Split {

    private Split() {
    }

    /**
     * The share of each agent, in the order of {@code weights}.
     *
     * @param perAgent the load each share starts from: the run's, with the warm-up and window the
     *                 agents run (see {@link Phases})
     * @throws AgentException when there are fewer connections (or requests) than agents
     */
    static List<LoadSpec> shares(LoadSpec perAgent, List<Double> weights) {
        int n = weights.size();
        if (perAgent.connections() < n) {
            throw new AgentException(perAgent.connections() + " connections cannot be split over " + n
                    + " agents: give at least one connection per agent (-c " + n + ")");
        }
        long[] conns = largestRemainder(perAgent.connections(), weights, 1);
        long[] counts = perAgent.requestCount().isPresent()
                ? largestRemainder(perAgent.requestCount().getAsLong(), weights, 1) : null;
        if (counts != null && perAgent.requestCount().getAsLong() < n) {
            throw new AgentException(perAgent.requestCount().getAsLong() + " requests cannot be split over " + n
                    + " agents: ask for at least one per agent");
        }
        double total = weights.stream().mapToDouble(Double::doubleValue).sum();
        List<LoadSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int c = (int) conns[i];
            LoadModel model = perAgent.model() instanceof LoadModel.FixedRate f
                    ? new LoadModel.FixedRate(f.requestsPerSecond() * weights.get(i) / total, f.paceSlack()) : perAgent.model();
            LoadSpec.Builder b = perAgent.toBuilder().model(model).connections(c).threads(Math.min(perAgent.threads(), c))
                    .seed(perAgent.seed() * 31 + i);
            if (counts != null) {
                b.requests(counts[i]);
            }
            out.add(b.build());
        }
        return out;
    }

    /** {@code total} split by weight into integers of at least {@code floor} each that add up to it. */
    static long[] largestRemainder(long total, List<Double> weights, long floor) {
        int n = weights.size();
        double sum = weights.stream().mapToDouble(Double::doubleValue).sum();
        long[] out = new long[n];
        double[] rest = new double[n];
        long given = 0;
        long spare = total - floor * n;
        for (int i = 0; i < n; i++) {
            double exact = spare * weights.get(i) / sum;
            out[i] = floor + (long) Math.floor(exact);
            rest[i] = exact - Math.floor(exact);
            given += out[i];
        }
        while (given < total) {
            int best = 0;
            for (int i = 1; i < n; i++) {
                if (rest[i] > rest[best]) {
                    best = i;
                }
            }
            out[best]++;
            rest[best] = -1;
            given++;
        }
        return out;
    }

    /**
     * How a run's warm-up and window map onto the agents' engines. A fixed warm-up runs in each
     * agent's engine (every agent starts at one instant, so every window starts at that instant plus
     * the warm-up). A steady-state warm-up cannot be decided by each agent alone, or their windows
     * would start at different moments: the agents run without one for the longest warm-up plus the
     * window, and the coordinator applies {@link io.loadlab.load.SteadyState}'s rule to the merged
     * per-second throughput, then tells them where the window ends.
     *
     * @param perAgent   the spec the shares are made from
     * @param steady     the steady-state warm-up the coordinator decides, when there is one
     * @param windowS    the window's length in whole intervals; 0 for a request-count run
     */
    record Phases(LoadSpec perAgent, java.util.Optional<Warmup.Steady> steady, int windowS) {

        static Phases of(LoadSpec spec) {
            if (spec.warmup() instanceof Warmup.Steady st && spec.duration().isPresent()) {
                Duration window = spec.duration().get();
                int windowS = (int) Math.max(1, (window.toMillis() + 999) / 1000);
                LoadSpec agents = rebuild(spec, Warmup.NONE, Duration.ofSeconds(windowS).plus(ceilSeconds(st.max())));
                return new Phases(agents, java.util.Optional.of(st), windowS);
            }
            int windowS = spec.duration().map(d -> (int) ((d.toMillis() + 999) / 1000)).orElse(0);
            return new Phases(spec, java.util.Optional.empty(), windowS);
        }

        /** Fixed warm-up length, ms (0 with a steady one: the agents run none). */
        long fixedWarmupMs() {
            return perAgent.warmup().max().toMillis();
        }

        private static Duration ceilSeconds(Duration d) {
            return Duration.ofSeconds((d.toMillis() + 999) / 1000);
        }

        private static LoadSpec rebuild(LoadSpec s, Warmup w, Duration duration) {
            return s.toBuilder().warmup(w).duration(duration).build();
        }
    }
}
