package io.loadlab.cli;

import io.loadlab.data.RunRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small experiment folder written by a test (experiment.json and runs.csv, no histograms): the
 * environment of data/sample, the given connections, and successful runs with the given rps per
 * subject and round, so that the statistics meet known values.
 */
final class TinyExperiment {

    private final String name;
    private final int connections;
    private final String serverCpus;
    private final Map<String, double[]> rps = new LinkedHashMap<>();

    TinyExperiment(String name, int connections, String serverCpus) {
        this.name = name;
        this.connections = connections;
        this.serverCpus = serverCpus;
    }

    /** The subject's rps in rounds 1, 2, ... on the plaintext workload. */
    TinyExperiment subject(String subject, double... values) {
        rps.put(subject, values);
        return this;
    }

    /** Writes {@code parent/name} and returns it. */
    Path write(Path parent) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        String json = """
                {
                  "loadlab_experiment" : 1,
                  "spec" : { "name" : "%s", "subjects" : "%s", "workloads" : "plaintext", "rounds" : %d,
                             "order" : "rotate", "seed" : 1, "duration" : "2s", "warmup" : "1s", "cooldown" : "0ms",
                             "connections" : %d, "threads" : 0, "rate" : null, "server_cpus" : "%s", "load_cpus" : null },
                  "environment" : { "cpu_model" : "AMD EPYC", "cores" : 2, "kernel" : "6.18.44", "os" : "Debian 12",
                                    "jvm" : "OpenJDK 17.0.15", "subject_versions" : { %s } },
                  "started" : "2026-12-01T10:00:00Z",
                  "status" : "completed"
                }
                """.formatted(name, String.join("|", rps.keySet()), rounds(), connections, serverCpus, versions());
        Files.writeString(dir.resolve("experiment.json"), json);
        List<String> lines = new ArrayList<>();
        lines.add(String.join(",", RunRow.COLUMNS));
        int id = 0;
        for (int round = 1; round <= rounds(); round++) {
            int position = 0;
            for (Map.Entry<String, double[]> e : rps.entrySet()) {
                Map<String, String> row = new LinkedHashMap<>();
                RunRow.COLUMNS.forEach(c -> row.put(c, ""));
                row.put("experiment", name);
                row.put("run_id", Integer.toString(++id));
                row.put("round", Integer.toString(round));
                row.put("position", Integer.toString(++position));
                row.put("subject", e.getKey());
                row.put("workload", "plaintext");
                row.put("engine", "builtin");
                row.put("connections", Integer.toString(connections));
                row.put("threads", "1");
                row.put("duration_s", "2");
                row.put("rps", String.format(Locale.ROOT, "%.1f", e.getValue()[round - 1]));
                row.put("load_bound", "false");
                row.put("status", "ok");
                row.put("warmup_s", "1");
                row.put("server_cpus", serverCpus);
                row.put("load_cpus", "1");
                lines.add(String.join(",", row.values()));
            }
        }
        Files.write(dir.resolve("runs.csv"), lines);
        return dir;
    }

    private int rounds() {
        return rps.values().iterator().next().length;
    }

    private String versions() {
        List<String> v = new ArrayList<>();
        rps.keySet().forEach(s -> v.add("\"" + s + "\" : \"v1\""));
        return String.join(", ", v);
    }
}
