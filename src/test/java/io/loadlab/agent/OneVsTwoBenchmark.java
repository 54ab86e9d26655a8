package io.loadlab.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.stats.Summary;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Throughput of one agent against two, against {@link CountingServer} in another namespace ({@link
 * Hosts}): alternating runs of {@code loadlab load --agents}, each printed with its per-agent figures.
 * A benchmark (bench/agents-one-vs-two.sh, root), not a test. After the rounds, each set-up's
 * throughput over rounds 2 and later (round 1 has cold agent JVMs) as n, mean, CV and 95% CI.
 * {@code OneVsTwoBenchmark [ROUNDS] [DURATION]}.
 */
public final class OneVsTwoBenchmark {

    private OneVsTwoBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        String duration = args.length > 1 ? args[1] : "5s";
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Path dir = Files.createTempDirectory("loadlab-agents-bench");
        double[][] warm = new double[2][Math.max(0, rounds - 1)];
        try (Hosts hosts = Hosts.start(dir)) {
            for (int round = 1; round <= rounds; round++) {
                String[] setups = {hosts.agent(1), hosts.agent(1) + "," + hosts.agent(2)};
                for (int k = 0; k < 2; k++) {
                    Hosts.Coordinated r = hosts.load("bench", "-c", "64", "-d", duration, "--warmup", "2s",
                            "--agents", setups[k], "--secret-file", hosts.secret.toString(), "--json",
                            hosts.url("/plaintext"));
                    print(out, round, r);
                    if (round > 1) {
                        warm[k][round - 2] = r.json().get("rps").asDouble();
                    }
                }
            }
        }
        if (rounds > 1) {
            for (int k = 0; k < 2; k++) {
                out.printf(Locale.ROOT, "%d agent(s), rounds 2-%d: req/s %s%n", k + 1, rounds,
                        ScalingBenchmark.show(Summary.of(warm[k])));
            }
        }
    }

    private static void print(PrintStream out, int round, Hosts.Coordinated r) {
        JsonNode j = r.json();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "round %d, %d agent(s): %,.0f req/s, p99 %d µs,"
                        + " status %s;", round, j.get("agents").size(), j.get("rps").asDouble(),
                j.get("latency_us").get("p99").asLong(), j.get("status").asText()));
        for (JsonNode a : j.get("agents")) {
            sb.append(String.format(Locale.ROOT, "  %s %,.0f req/s, load CPU %.2f s%s, clock %+d µs, lag %d ms;",
                    a.get("address").asText(), a.get("rps").asDouble(), a.get("load_cpu_s").asDouble(),
                    a.get("load_bound").asBoolean() ? " (load-bound)" : "", a.get("clock_offset_us").asLong(),
                    a.get("start_lag_ms").asLong()));
        }
        out.println(sb);
    }
}
