package io.loadlab.cli;

import static io.loadlab.cli.ReportProcesses.assertNoneLeft;
import static io.loadlab.cli.ReportProcesses.classpath;
import static io.loadlab.cli.ReportProcesses.count;
import static io.loadlab.cli.ReportProcesses.javaCommand;
import static io.loadlab.cli.ReportProcesses.requireTool;
import static io.loadlab.cli.ReportProcesses.tail;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadlab.data.Results;
import io.loadlab.data.RunHistograms;
import io.loadlab.format.Units;
import io.loadlab.stats.CompareOptions;
import io.loadlab.stats.Knee;
import io.loadlab.stats.Knees;
import io.loadlab.stats.LatencyCurves;
import io.loadlab.stats.Protocols;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * The real {@code loadlab report} on {@code data/sample}, then the page in headless Chromium:
 * the rendered DOM holds the charts and tables, every figure in them rounded for people, and a
 * screenshot shows them: the charts as wide as the page, each number as short as its rounded text
 * ({@link ReportPage}). The command runs in
 * its own JVM with Jupyter's data, config and runtime folders in a temporary folder, so the
 * kernel it installs "for the user" stays there, and its kernels and Chromium's processes can be
 * found by those paths and checked to be gone.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class ReportCommandTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    private static final Path JUPYTER = Path.of("/usr/bin/jupyter");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path tmp;

    @Test
    void reportOfTheSampleRendersOfflineWithChartsAndTables() throws Exception {
        requireTool(JUPYTER, "jupyter-client jupyter-core jupyter-nbconvert");
        requireTool(CHROMIUM, "chromium");
        Path report = tmp.resolve("out/sample report.html");
        Path runtime = tmp.resolve("jupyter-runtime");
        try {
            Result r = run(List.of(javaCommand(), "-Dloadlab.home=" + HOME, "-cp", classpath(), Main.class.getName(),
                    "report", "data/sample", "--out", report.toString()), jupyterEnv(runtime), Duration.ofSeconds(300));
            assertEquals(0, r.code(), r.output());
            assertTrue(r.output().lines().anyMatch(l -> l.equals(report.toString())), r.output());
        } finally {
            assertNoneLeft("kernel JVM", runtime.toString());
        }
        assertTrue(Files.isRegularFile(tmp.resolve("jupyter-data/kernels/loadlab/kernel.json")),
                "the kernel was not installed for the (temporary) user");

        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertFalse(Pattern.compile("<script[^>]*\\ssrc=", Pattern.CASE_INSENSITIVE).matcher(html).find(),
                "the page loads a script from elsewhere");
        assertFalse(Pattern.compile("<link[^>]*href=\"(https?:|file:|//)", Pattern.CASE_INSENSITIVE).matcher(html).find(),
                "the page loads a stylesheet from elsewhere");
        assertFalse(html.contains("template-notes") || html.contains("Loadlab report template"),
                "the template's own notes are in the report");
        assertFalse(html.contains("Results.load("), "code cells are in the report without --with-code");
        assertTrue(html.contains("Experiment sample"), "no title with the experiment's name");
        // The answer first: the summary, then the charts; the environment and the warm-up last.
        int summary = html.indexOf("<h2>Summary</h2>");
        int firstChart = html.indexOf("src=\"data:image/png");
        int environment = html.indexOf(">Environment and settings<");
        assertTrue(summary > 0 && summary < firstChart && firstChart < environment
                && environment < html.indexOf(">Warm-up and machine noise<"), "summary " + summary + ", first chart "
                + firstChart + ", environment " + environment + ": not in that order");
        assertTrue(html.contains(" was the fastest: ") && html.contains("Against go-nethttp on json: "), "no summary sentences");
        // durability=memory, which every subject of the sample had, said once and in no label.
        assertEquals(1, count(html, "durability=memory"), "durability=memory is not said exactly once");
        assertFalse(html.contains("Latency at equal load"), "no latency sweep here, yet a sweep section");
        assertFalse(html.contains("Cost of TLS and HTTP/2"), "no protocol variants here, yet a protocols section");

        // Chromium's profile and its HOME (where its crash handler keeps a database) under one folder,
        // whose path then marks every process Chromium starts.
        Path chromium = tmp.resolve("chromium");
        Map<String, String> chromiumEnv = Map.of("HOME", chromium.resolve("home").toString(),
                "XDG_CONFIG_HOME", chromium.resolve("home/.config").toString(),
                "XDG_CACHE_HOME", chromium.resolve("home/.cache").toString());
        Files.createDirectories(chromium.resolve("home"));
        String dom;
        Path screenshot = tmp.resolve("report.png");
        // The report plus a script that writes the layout into the DOM; what it adds comes after the page.
        Path measured = tmp.resolve("out/measured report.html");
        Files.writeString(measured, ReportPage.withMeasuringScript(html), StandardCharsets.UTF_8);
        try {
            Result d = run(chromium(chromium.resolve("dump-profile"), "--dump-dom", measured), chromiumEnv,
                    Duration.ofSeconds(90));
            assertEquals(0, d.code(), tail(d.output()));
            dom = d.stdout();
            Result s = run(chromium(chromium.resolve("shot-profile"), "--screenshot=" + screenshot, measured), chromiumEnv,
                    Duration.ofSeconds(90));
            assertEquals(0, s.code(), tail(s.output()));
        } finally {
            assertNoneLeft("Chromium process", chromium.toString());
        }

        Matcher img = Pattern.compile("<img[^>]*src=\"data:image/png;base64,([A-Za-z0-9+/=\\s]+)\"").matcher(dom);
        int charts = 0;
        while (img.find()) {
            if (img.group(1).length() > 10_000) {
                charts++;
            }
        }
        assertTrue(charts >= 2, "the rendered page has " + charts + " PNG charts of some size, expected at least 2");
        Matcher tbody = Pattern.compile("<tbody>(.*?)</tbody>", Pattern.DOTALL).matcher(dom);
        int bestRows = 0;
        while (tbody.find()) {
            bestRows = Math.max(bestRows, count(tbody.group(1), "<tr"));
        }
        assertTrue(bestRows >= 3, "no table with at least 3 body rows in the rendered page (most: " + bestRows + ")");
        ReportPage.assertRounded(dom);

        assertTrue(Files.isRegularFile(screenshot), "no screenshot");
        BufferedImage image = ImageIO.read(screenshot.toFile());
        assertEquals(1280, image.getWidth());
        Set<Integer> colours = new HashSet<>();
        long saturated = 0;
        long darkInTitle = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                int red = rgb >> 16;
                int green = (rgb >> 8) & 0xFF;
                int blue = rgb & 0xFF;
                // Text and tables are grey; only the charts' series colours are saturated.
                if (Math.max(red, Math.max(green, blue)) - Math.min(red, Math.min(green, blue)) > 80) {
                    saturated++;
                }
                if (y < 300 && red + green + blue < 200) {
                    darkInTitle++;
                }
            }
        }
        assertTrue(colours.size() > 50, "the screenshot has only " + colours.size() + " colours: blank?");
        assertTrue(saturated > 20_000, "the screenshot has " + saturated + " coloured pixels: the charts are not drawn");
        assertTrue(darkInTitle > 500, "no text at the top of the screenshot");
        JsonNode layout = ReportPage.measurements(dom);
        ReportPage.assertChartsFillThePage(layout, image);
        ReportPage.assertCellsShowTheirText(layout, image);
    }

    @Test
    void roundsAutoAndP99RatiosGetSectionsOfTheirOwn() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("auto-sample"));
        for (String f : List.of("experiment.json", "runs.csv", "latency.hlog")) {
            Files.copy(HOME.resolve("data/sample").resolve(f), dir.resolve(f));
        }
        io.loadlab.data.ExperimentJson json = io.loadlab.data.ExperimentJson.read(dir);
        json.roundsAuto(new io.loadlab.data.RoundsAutoOutcome(3, io.loadlab.data.RoundsAutoOutcome.Stop.DECIDED,
                "2 of 2 comparisons decided after round 3", 10, java.util.Optional.of("20m"), 0.05, 0.00625, "rps",
                "go-nethttp", List.of(new io.loadlab.data.RoundsAutoOutcome.Compared("node-http", "json", "slower", true,
                0.61, 0.0004))));
        Files.writeString(dir.resolve("experiment.json"), json.text(), StandardCharsets.UTF_8);
        String html = render("auto.html", dir.toString());
        assertTrue(html.contains("Rounds auto"), "no rounds auto section");
        assertTrue(html.contains("3 of at most 10 rounds"), "rounds taken not shown");
        assertTrue(html.contains("decided</b>, 2 of 2 comparisons decided after round 3"), "why it stopped not shown");
        assertTrue(html.contains("p99 compared with the baseline"), "no p99 ratio section");
        assertTrue(html.contains("p99 ratio to "), "no p99 ratio table");
    }

    @Test
    void anExperimentWithSeveralEnginesGetsAnEnginesSection() throws Exception {
        String html = render("engines.html", "data/sample-engines");
        assertTrue(html.contains("<h2>Engines</h2>"), "no Engines section");
        for (String caption : List.of("requests per second by engine, against the built-in engine",
                "order of the subjects by throughput, best first", "requests per CPU-second of the load generator itself")) {
            int at = html.indexOf(caption);
            assertTrue(at > 0, "no table '" + caption + "'");
        }
        // Every subject appears with each external engine in the engine table.
        for (String subject : List.of("go-nethttp", "java-netty", "node-http")) {
            assertTrue(Pattern.compile(subject + "[^<]*</td>\\s*<td>wrk</td>").matcher(html).find(), subject + " x wrk");
            assertTrue(Pattern.compile(subject + "[^<]*</td>\\s*<td>h2load</td>").matcher(html).find(), subject + " x h2load");
        }
        assertFalse(html.contains("StatsException") || html.contains("Exception:"), "an error in the report");
        assertFalse(html.contains("<h2>Reconciled with other experiments</h2>"), "one experiment, yet a reconcile section");
        ReportPage.assertRounded(html);
    }

    @Test
    void aLatencySweepGetsASectionWithItsCurvesChartKneesAndEqualRates() throws Exception {
        String html = render("sweep.html", "data/sweep-sample", "--baseline", "nginx");
        assertFalse(html.contains("StatsException") || html.contains("Exception:"), "an error in the report");
        int section = html.indexOf("<h2>Latency at equal load: the latency sweep</h2>");
        assertTrue(section > 0, "no sweep section");
        int end = html.indexOf(">Latency spectrum", section);
        assertTrue(end > section, "the sweep section comes before the closed-loop latency spectrum");
        String part = html.substring(section, end);
        // The curves as the stats compute them from the committed sweep, one row per subject and point.
        Results results = Results.load(HOME.resolve("data/sweep-sample"));
        Table runs = results.runs();
        RunHistograms histograms = RunHistograms.load(runs.where(runs.stringColumn("sweep_role").isIn("fraction", "rate")),
                results.experiments());
        Table curves = LatencyCurves.curves(runs, histograms, CompareOptions.defaults().seed());
        assertEquals(10, curves.rowCount(), "2 subjects x 5 points");
        for (int i = 0; i < curves.rowCount(); i++) {
            String subject = curves.stringColumn("subject").get(i);
            String variant = curves.stringColumn("variant").get(i);
            String row = "<td>" + Pattern.quote(variant.isEmpty() ? subject : subject + " [" + variant + "]") + "</td>\\s*<td>"
                    + Pattern.quote(curves.stringColumn("point").get(i)) + "</td>\\s*<td[^>]*>3</td>"
                    + cells(curves, i, "target_rps", "rps", "missed", "lat_p50_us");
            assertTrue(Pattern.compile(row).matcher(part).find(), "no curve row " + row);
        }
        for (Knee k : Knees.find(runs, histograms, 5000, CompareOptions.defaults().seed())) {
            assertTrue(part.contains("<td>" + k.shown() + "</td>"), "no knee " + k);
        }
        assertTrue(part.contains("knee at a p99 under 5.00ms"), "the objective is the sweep's --slo 5ms");
        assertTrue(part.contains("p99 at equal offered load, against nginx"), "no equal-rate table");
        assertTrue(Pattern.compile("<img[^>]*src=\"data:image/png;base64,").matcher(part).find(), "no curve chart");
        // The throughput comparison holds the capacity runs only, not each fixed-rate window as a variant.
        String comparison = html.substring(html.indexOf("requests per second, baseline nginx"), section);
        assertFalse(comparison.contains("rate=") || comparison.contains("no baseline"), "sweep windows as variants");
        ReportPage.assertRounded(html);
    }

    @Test
    void protocolVariantsGetACostOfProtocolsSectionWithTablesAndCharts() throws Exception {
        String html = render("protocols.html", "data/protocols-sample");
        assertFalse(html.contains("StatsException") || html.contains("Exception:"), "an error in the report");
        int section = html.indexOf("<h2>Cost of TLS and HTTP/2</h2>");
        assertTrue(section > 0, "no protocols section");
        String part = html.substring(section, html.indexOf(">Latency spectrum", section));
        // Every row as the stats compute it from the committed experiment: subject, protocol, n, ratio and its CI.
        Table cost = Protocols.cost(Results.load(HOME.resolve("data/protocols-sample")).runs(), CompareOptions.defaults());
        assertEquals(16, cost.rowCount(), "8 protocol variants (nginx 2, go-nethttp 3, java-netty 3) x 2 metrics");
        for (int i = 0; i < cost.rowCount(); i++) {
            String v = cost.stringColumn("variant").get(i);
            String row = "<td>" + Pattern.quote(cost.stringColumn("subject").get(i) + (v.isEmpty() ? "" : " [" + v + "]"))
                    + "</td>\\s*<td>" + cost.stringColumn("protocol").get(i) + "</td>\\s*<td[^>]*>3</td>(\\s*<td[^>]*>[^<]*</td>){4}"
                    + "\\s*<td[^>]*>" + Pattern.quote(Units.ratio(cost.doubleColumn("ratio").get(i))) + "</td>\\s*<td>"
                    + Pattern.quote(Units.interval(cost.doubleColumn("ratio_ci_low").get(i),
                            cost.doubleColumn("ratio_ci_high").get(i), io.loadlab.format.Figure.RATIO)) + "</td>";
            assertTrue(Pattern.compile(row).matcher(part).find(), "no row " + row);
        }
        assertTrue(part.contains("requests per server CPU-second: each protocol against the subject"), "no CPU table");
        assertTrue(part.contains("requests per second: each protocol against the subject"), "no throughput table");
        assertEquals(2, Pattern.compile("<img[^>]*src=\"data:image/png;base64,").matcher(part).results().count(),
                "a chart per metric");
        ReportPage.assertRounded(html);
    }

    /** The figures of row i of the table as the report shows them, one right-aligned cell each, as a pattern. */
    private static String cells(Table t, int i, String... columns) {
        StringBuilder out = new StringBuilder();
        for (String c : columns) {
            out.append("\\s*<td[^>]*>").append(Pattern.quote(Units.integer(t.doubleColumn(c).getDouble(i)))).append("</td>");
        }
        return out.toString();
    }

    @Test
    void severalExperimentsGetAReconcileSection() throws Exception {
        requireTool(JUPYTER, "jupyter-client jupyter-core jupyter-nbconvert");
        Path report = tmp.resolve("reconciled.html");
        Path runtime = tmp.resolve("jupyter-runtime");
        try {
            Result r = run(List.of(javaCommand(), "-Dloadlab.home=" + HOME, "-cp", classpath(), Main.class.getName(),
                    "report", "data/sample", "data/sample-engines", "--out", report.toString()), jupyterEnv(runtime),
                    Duration.ofSeconds(300));
            assertEquals(0, r.code(), r.output());
        } finally {
            assertNoneLeft("kernel JVM", runtime.toString());
        }
        String html = Files.readString(report, StandardCharsets.UTF_8);
        int section = html.indexOf("<h2>Reconciled with other experiments</h2>");
        assertTrue(section > 0, "no reconcile section");
        String tail = html.substring(section);
        for (String caption : List.of("environment and set-up that differ", "order of the subjects by throughput in each",
                "ratio of ratios of the throughput, per pair and workload")) {
            assertTrue(tail.contains(caption), "no table '" + caption + "'");
        }
        // The settings that differ between the two are named: 5 rounds against 3, one engine against three.
        assertTrue(Pattern.compile("<td>rounds</td>\\s*<td>5</td>\\s*<td>3</td>\\s*<td>yes</td>").matcher(tail).find(), "rounds");
        assertTrue(Pattern.compile("<td>engines</td>\\s*<td>builtin</td>\\s*<td>builtin,wrk,h2load</td>").matcher(tail).find(),
                "engines");
        // Three subjects on two workloads: 3 pairs each, all within the experiments' noise (the CLI's figures).
        assertEquals(6, Pattern.compile("<td>within noise</td>").matcher(tail).results().count(), "pairs within noise");
        assertTrue(Pattern.compile("<td>json</td>\\s*<td>A</td>\\s*<td>B</td>\\s*<td>java-netty \\[durability=memory\\]</td>"
                + "\\s*<td>go-nethttp \\[durability=memory\\]</td>\\s*<td[^>]*>1.84</td>\\s*<td[^>]*>1.90</td>\\s*<td[^>]*>0.970</td>"
                + "\\s*<td>\\[0.933, 1.00\\]</td>").matcher(tail).find(), "json java-netty / go-nethttp row");
        assertTrue(tail.contains("No pair disagrees beyond the experiments' noise."), "no conclusion");
        assertFalse(html.contains("StatsException") || html.contains("Exception:"), "an error in the report");
        ReportPage.assertRounded(html);
    }

    @Test
    void experimentsWithoutAPairInCommonAreAOneLineUsageError() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"report", "data/sample", "data/drogon-axum", "--out",
            tmp.resolve("none.html").toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(Main.EXIT_USAGE, code, err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains("no workload has two subjects measured (rps) in both A and another experiment"),
                err.toString());
        assertFalse(Files.exists(tmp.resolve("none.html")));
    }

    @Test
    void aFolderThatIsNoExperimentIsAOneLineUsageError() throws IOException {
        Files.createDirectories(tmp.resolve("empty"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[] {"report", tmp.resolve("empty").toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(Main.EXIT_USAGE, code);
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains("is not an experiment folder: it has no experiment.json"), err.toString());
    }

    private List<String> chromium(Path profile, String action, Path page) {
        return List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1280,4000", action, page.toUri().toString());
    }

    private Map<String, String> jupyterEnv(Path runtime) {
        return Map.of("JUPYTER_DATA_DIR", tmp.resolve("jupyter-data").toString(),
                "JUPYTER_CONFIG_DIR", tmp.resolve("jupyter-config").toString(),
                "JUPYTER_RUNTIME_DIR", runtime.toString(),
                // Else Jupyter also looks in ~/.local/share/jupyter, and may find the real user's kernel there.
                "PYTHONNOUSERSITE", "1",
                "PYTHONDONTWRITEBYTECODE", "1");
    }

    private record Result(int code, String stdout, String output) {}

    /**
     * Runs a command with its standard output and error in files of the temporary folder; past
     * the limit it is stopped with its whole process tree, by PID, and the test fails.
     */
    private Result run(List<String> command, Map<String, String> env, Duration limit)
            throws IOException, InterruptedException {
        Path stdout = Files.createTempFile(tmp, "stdout", ".txt");
        Path stderr = Files.createTempFile(tmp, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(HOME.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        boolean done = p.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
        List<ProcessHandle> tree = p.descendants().collect(Collectors.toList());
        if (!done) {
            tree.forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String out = Files.readString(stdout, StandardCharsets.UTF_8);
        String all = out + Files.readString(stderr, StandardCharsets.UTF_8);
        assertTrue(done, String.join(" ", command) + " did not finish in " + limit.toSeconds() + " s:\n" + tail(all));
        return new Result(p.exitValue(), out, all);
    }

    /** Renders a report into {@code file} under the test's folder, from {@code args} (folders and options); its HTML. */
    private String render(String file, String... args) throws Exception {
        requireTool(JUPYTER, "jupyter-client jupyter-core jupyter-nbconvert");
        Path report = tmp.resolve(file);
        Path runtime = tmp.resolve("jupyter-runtime");
        List<String> command = new java.util.ArrayList<>(List.of(javaCommand(), "-Dloadlab.home=" + HOME, "-cp",
                classpath(), Main.class.getName(), "report"));
        command.addAll(List.of(args));
        command.addAll(List.of("--out", report.toString()));
        try {
            Result r = run(command, jupyterEnv(runtime), Duration.ofSeconds(300));
            assertEquals(0, r.code(), r.output());
        } finally {
            assertNoneLeft("kernel JVM", runtime.toString());
        }
        return Files.readString(report, StandardCharsets.UTF_8);
    }
}
