package io.loadlab.agent;

import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import io.loadlab.load.ErrorCounts;
import io.loadlab.stats.Summary;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * What one coordinator can merge per second, with simulated agents in one JVM (a benchmark, not a
 * test: bench/agents-scaling.sh runs it). (1) The coordinator's own work per interval message: parse
 * the JSON, decode the compressed histogram, add it to the merged one, on one thread. (2) The same
 * messages through Hazelcast: K in-JVM members (the agents) offering to their reply queues and one
 * client per agent polling them, as the coordinator does; and the threads each client costs. Each
 * figure is measured REPS times of SECONDS each, after one such repetition discarded as warm-up, and
 * printed as n, mean, CV and 95% CI. {@code ScalingBenchmark [SECONDS] [AGENTS] [REPS]}.
 */
public final class ScalingBenchmark {

    private ScalingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        int agents = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        RefusalLog.install(System.err); // Hazelcast's own messages below WARNING off, as in an agent
        List<String> messages = messages(64);
        out.printf(Locale.ROOT, "interval message: %,d bytes of JSON on average (a 50k-request second, latency 50 µs"
                + " to 50 ms)%n", messages.stream().mapToInt(String::length).sum() / messages.size());
        decodeAndMerge(messages, seconds);
        double[] perSecond = new double[reps];
        for (int i = 0; i < reps; i++) {
            perSecond[i] = decodeAndMerge(messages, seconds);
        }
        Summary d = Summary.of(perSecond);
        out.printf(Locale.ROOT, "decode + merge on one thread: %s interval histograms/s (%.1f µs each)%n", show(d),
                1e6 / d.mean());
        transport(messages, seconds, agents, reps, out);
    }

    /** n, mean, CV and the 95% CI of the mean, rounded as people read them. */
    static String show(Summary s) {
        return String.format(Locale.ROOT, "n=%d mean %,.0f, CV %.2f%%, 95%% CI [%,.0f, %,.0f]", s.n(), s.mean(),
                s.cv() * 100, s.ciLow(), s.ciHigh());
    }

    /** Messages as agents send them, each with its own second of latencies. */
    static List<String> messages(int n) {
        List<String> out = new ArrayList<>();
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < n; i++) {
            Histogram h = new Histogram(1, 3_600_000_000L, 3);
            for (int k = 0; k < 50_000; k++) {
                h.recordValue((long) (50 * Math.exp(r.nextDouble() * Math.log(1000))));
            }
            out.add(Wire.encode(new Message.Interval(i, 0, 1000, 50_000, 0, ErrorCounts.NONE, 5_000_000, 0, 0, h,
                    Optional.empty(), java.util.OptionalDouble.empty())));
        }
        return out;
    }

    private static double decodeAndMerge(List<String> messages, double seconds) {
        Histogram merged = new Histogram(1, 3_600_000_000L, 3);
        long n = 0;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long start = System.nanoTime();
        while (System.nanoTime() < end) {
            for (String m : messages) {
                merged.add(((Message.Interval) Wire.decode(m)).latency());
                n++;
            }
        }
        return n / ((System.nanoTime() - start) / 1e9);
    }

    /** K members and K clients in this JVM; every agent offers as fast as its queue takes, the coordinator polls. */
    private static void transport(List<String> messages, double seconds, int k, int reps, PrintStream out)
            throws Exception {
        Secret secret = Secret.of("scaling benchmark secret, not for use");
        List<HazelcastInstance> members = new ArrayList<>();
        List<HazelcastInstance> clients = new ArrayList<>();
        int before = Thread.activeCount();
        try {
            for (int i = 0; i < k; i++) {
                members.add(Cluster.member(new HostPort("127.0.0.1", 15800 + i), secret));
            }
            int afterMembers = Thread.activeCount();
            for (int i = 0; i < k; i++) {
                clients.add(Cluster.client(new HostPort("127.0.0.1", 15800 + i), secret, java.time.Duration.ofSeconds(10)));
            }
            int perClient = (Thread.activeCount() - afterMembers) / k;
            out.printf(Locale.ROOT, "threads: %d per in-JVM member, %d per coordinator client%n",
                    (afterMembers - before) / k, perClient);
            double[] rates = new double[reps];
            for (int rep = -1; rep < reps; rep++) {
                double rate = transportOnce(members, clients, messages, seconds, "bench" + rep);
                if (rep >= 0) {
                    rates[rep] = rate;
                }
            }
            out.printf(Locale.ROOT, "through Hazelcast, %d agents: %s interval messages/s received, decoded and"
                    + " merged%n", k, show(Summary.of(rates)));
        } finally {
            clients.forEach(HazelcastInstance::shutdown);
            members.forEach(HazelcastInstance::shutdown);
        }
    }

    /** One repetition: every agent offers on queue {@code name} and its client polls, for {@code seconds}. */
    private static double transportOnce(List<HazelcastInstance> members, List<HazelcastInstance> clients,
                                        List<String> messages, double seconds, String name) throws InterruptedException {
        AtomicLong received = new AtomicLong();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            IQueue<String> send = members.get(i).getQueue(name);
            IQueue<String> take = clients.get(i).getQueue(name);
            threads.add(new Thread(() -> offerUntil(send, messages, end)));
            threads.add(new Thread(() -> pollUntil(take, end, received)));
        }
        long start = System.nanoTime();
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        return received.get() / ((System.nanoTime() - start) / 1e9);
    }

    private static void offerUntil(IQueue<String> q, List<String> messages, long end) {
        int i = 0;
        while (System.nanoTime() < end) {
            if (q.size() < 64) {
                q.offer(messages.get(i++ % messages.size()));
            }
        }
    }

    private static void pollUntil(IQueue<String> q, long end, AtomicLong received) {
        Histogram merged = new Histogram(1, 3_600_000_000L, 3);
        try {
            while (System.nanoTime() < end) {
                String m = q.poll(100, TimeUnit.MILLISECONDS);
                if (m != null) {
                    synchronized (received) {
                        merged.add(((Message.Interval) Wire.decode(m)).latency());
                    }
                    received.incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
