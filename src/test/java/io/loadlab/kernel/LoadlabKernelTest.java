package io.loadlab.kernel;

import static io.loadlab.kernel.KernelFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import io.loadlab.data.RunRow;
import io.loadlab.experiment.Plan;
import io.loadlab.subject.Subject;
import io.loadlab.subject.Subjects;
import io.loadlab.workload.Workload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The kernel's evaluation logic, in process: values, displays, errors, completion, interrupts. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoadlabKernelTest {

    private static KernelFixture fixture;
    private static LoadlabKernel kernel;

    @BeforeAll
    static void start() {
        fixture = new KernelFixture();
        kernel = fixture.kernel;
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @BeforeEach
    void clear() {
        fixture.shown.clear();
        fixture.updated.clear();
    }

    @Test
    void theLastExpressionIsTheResult() throws Exception {
        DisplayData d = kernel.eval("int x = 20;\nint y = 22;\nx + y");
        assertEquals("42", text(d, "text/plain"));
        assertEquals("ab", text(kernel.eval("\"a\" + \"b\""), "text/plain"));
        assertEquals("null", text(kernel.eval("String none = null;\nnone"), "text/plain"));
        assertEquals("7", text(kernel.eval("x = 7"), "text/plain"), "an assignment is an expression");
    }

    @Test
    void declarationsAndStatementsGiveNoResult() throws Exception {
        assertNull(kernel.eval("int declared = 5;"));
        assertNull(kernel.eval("List<String> names = new ArrayList<>()"), "the semicolon is optional");
        assertNull(kernel.eval("names.add(\"a\");\nfor (String n : names) { n.length(); }"));
        assertNull(kernel.eval("// only a comment"));
    }

    @Test
    void loadlabClassesAreImported() throws Exception {
        DisplayData d = kernel.eval("Summary.of(new double[] {1, 2, 3}).n()");
        assertEquals("3", text(d, "text/plain"));
        assertEquals("true", text(kernel.eval("Duration.ofSeconds(1).toMillis() == 1000"), "text/plain"));
    }

    @Test
    void printedTextGoesToSystemOut() throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            kernel.eval("System.out.print(\"hello, world\")");
        } finally {
            System.setOut(old);
        }
        assertEquals("hello, world", captured.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aDefinitionWithMissingPartsIsNotedAndFailsWhenUsed() throws Exception {
        PrintStream old = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertNull(kernel.eval("void later() { notYet++; }"));
        } finally {
            System.setErr(old);
        }
        assertEquals("note: later cannot be used until variable notYet is defined\n", captured.toString(StandardCharsets.UTF_8));
        CellError e = assertThrows(CellError.class, () -> kernel.eval("later()"));
        assertEquals("jdk.jshell.UnresolvedReferenceException", e.ename());
        assertEquals("'void later() { notYet++; }' cannot be used until variable notYet is defined", e.evalue());
    }

    @Test
    void displaySendsDisplayDataNowAndRenderReturnsIt() throws Exception {
        DisplayData result = kernel.eval("display(\"first\");\n2");
        assertEquals(1, fixture.shown.size());
        assertEquals("first", text(fixture.shown.get(0), "text/plain"));
        assertEquals("2", text(result, "text/plain"));

        DisplayData rendered = kernel.eval("var tbl = Table.create(\"t\", IntColumn.create(\"n\", 1));\nrender(tbl)");
        assertTrue(text(rendered, "text/html").contains("<table>"), text(rendered, "text/html"));
    }

    @Test
    void aTableIsAnEscapedHtmlTableWithItsNameAsCaption() throws Exception {
        DisplayData d = kernel.eval("Table.create(\"runs <b>\", StringColumn.create(\"subject\", \"a<b\", \"c&d\"),"
                + " IntColumn.create(\"n\", 1, 2))");
        String html = text(d, "text/html");
        assertTrue(html.contains("<caption>runs &lt;b&gt; <small>(2 rows × 2 columns)</small></caption>"), html);
        assertTrue(html.contains("<td>a&lt;b</td>") && html.contains("<td>c&amp;d</td>"), html);
        assertTrue(html.contains("<th>subject</th><th>n</th>"), html);
        assertNotNull(text(d, "text/plain"));
        assertTrue(text(d, "text/plain").contains("a<b"), text(d, "text/plain"));
    }

    @Test
    void aLongTableShowsFiftyRowsAndSaysHowManyMore() throws Exception {
        DisplayData d = kernel.eval("var big = Table.create(\"big\", IntColumn.create(\"i\", java.util.stream.IntStream.range(0, 120).toArray()));\nbig");
        String html = text(d, "text/html");
        assertEquals(50, html.split("<td", -1).length - 1, html);
        assertTrue(html.contains("… 70 more rows"), html);
    }

    @Test
    void aChartIsAPngAndSvgOnRequest() throws Exception {
        kernel.eval("var chart = new org.knowm.xchart.XYChartBuilder().width(300).height(200).title(\"rps\").build();\n"
                + "chart.addSeries(\"a\", new double[] {1, 2, 3}, new double[] {3, 1, 2});");
        DisplayData d = kernel.eval("chart");
        byte[] png = Base64.getDecoder().decode(text(d, "image/png"));
        assertEquals((byte) 0x89, png[0]);
        assertEquals("PNG", new String(png, 1, 3, StandardCharsets.US_ASCII));
        assertNull(text(d, "image/svg+xml"), "SVG only on request");
        assertEquals("XYChart rps (300×200 px)", text(d, "text/plain"));

        DisplayData svg = kernel.eval("svg(chart)");
        assertTrue(text(svg, "image/svg+xml").contains("<svg"), text(svg, "image/svg+xml"));
        DisplayData asSvg = kernel.eval("render(chart, \"image/svg+xml\")");
        assertTrue(text(asSvg, "image/svg+xml").contains("<svg"));
        assertNull(text(asSvg, "image/png"));
    }

    @Test
    void aHistogramIsATableOfPercentiles() throws Exception {
        DisplayData d = kernel.eval("var h = new Histogram(3);\nfor (int i = 1; i <= 1000; i++) h.recordValue(i);\nh");
        String html = text(d, "text/html");
        assertTrue(html.contains("<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>max</th><th>count</th>"),
                html);
        assertTrue(html.contains("<td style=\"text-align:right\">500</td>"), html);
        assertTrue(html.contains("<td style=\"text-align:right\">1,000</td>"), html);
        assertTrue(text(d, "text/plain").startsWith("latency (µs): p50=500 p90=900"), text(d, "text/plain"));
    }

    @Test
    void comparisonsAndSummariesAreHtml() throws Exception {
        DisplayData rows = kernel.eval("var runs = Results.load(Path.of(\"data/sample\")).runs();\n"
                + "Comparison.rows(runs, \"rps\", \"go-nethttp\", CompareOptions.defaults())");
        String html = text(rows, "text/html");
        assertTrue(html.contains("<th>verdict</th>") && html.contains("go-nethttp"), html);
        DisplayData summary = kernel.eval("Summary.of(new double[] {1, 2, 3, 4})");
        assertTrue(text(summary, "text/html").contains("<th>mean</th>"), text(summary, "text/html"));
        DisplayData list = kernel.eval("List.of(1, 2)");
        assertNull(text(list, "text/html"), "other lists are plain text");
        assertEquals("[1, 2]", text(list, "text/plain"));
    }

    @Test
    void aRuntimeExceptionIsNamedAfterItsClassWithTheCellLines() {
        CellError e = assertThrows(CellError.class, () -> kernel.eval(
                "int divide(int a) {\n    return 10 / a;\n}\n\ndivide(0)"));
        assertEquals("java.lang.ArithmeticException", e.ename());
        assertEquals("/ by zero", e.evalue());
        assertEquals("java.lang.ArithmeticException: / by zero", e.traceback().get(0));
        assertEquals("    at divide (cell line 2)", e.traceback().get(1), String.join("\n", e.traceback()));
        assertEquals("    at (cell line 5)", e.traceback().get(2), String.join("\n", e.traceback()));

        CellError commented = assertThrows(CellError.class, () -> kernel.eval(
                "int two = 2;\n// a comment\n\n  /* another */ divide(two - 2)"));
        assertEquals("    at (cell line 4)", commented.traceback().get(2), String.join("\n", commented.traceback()));

        CellError state = assertThrows(CellError.class, () -> kernel.eval("throw new IllegalStateException(\"bad state\")"));
        assertEquals("java.lang.IllegalStateException", state.ename());
        assertEquals("java.lang.IllegalStateException: bad state", state.traceback().get(0));
    }

    @Test
    void libraryFramesAndCausesAreShown() {
        CellError e = assertThrows(CellError.class, () -> kernel.eval(
                "throw new RuntimeException(\"outer\", new java.io.IOException(\"inner\"))"));
        assertEquals("java.lang.RuntimeException", e.ename());
        assertTrue(e.traceback().contains("Caused by: java.io.IOException: inner"), String.join("\n", e.traceback()));

        CellError parse = assertThrows(CellError.class, () -> kernel.eval("Integer.parseInt(\"zz\")"));
        assertEquals("java.lang.NumberFormatException", parse.ename());
        assertTrue(parse.traceback().stream().anyMatch(l -> l.startsWith("    at java.base/java.lang.Integer.parseInt")),
                String.join("\n", parse.traceback()));
    }

    @Test
    void aCompilationErrorNamesTheCellLine() {
        CellError e = assertThrows(CellError.class, () -> kernel.eval("int one = 1;\nString s = one;"));
        assertEquals(CellError.COMPILATION, e.ename());
        assertTrue(e.evalue().startsWith("incompatible types"), e.evalue());
        String tb = String.join("\n", e.traceback());
        assertTrue(tb.contains("cell line 2: incompatible types"), tb);
        assertTrue(tb.contains("    String s = one;\n               ^"), tb);
    }

    @Test
    void aCellStopsAtItsFirstError() throws Exception {
        assertThrows(CellError.class, () -> kernel.eval("int kept = 1;\nif (true) throw new RuntimeException(\"x\");\nkept = 5;"));
        assertEquals("1", text(kernel.eval("kept"), "text/plain"));
    }

    @Test
    void isCompleteTellsCompleteIncompleteAndInvalid() {
        assertEquals("complete", kernel.isComplete("int a = 1;"));
        assertEquals("complete", kernel.isComplete("int a = 1"));
        assertEquals("complete", kernel.isComplete("%jars lib/*.jar\nint a = 1;"));
        assertEquals("    ", kernel.isComplete("for (int i = 0; i < 3; i++) {"));
        assertEquals("", kernel.isComplete("1 +"));
        assertEquals("invalid", kernel.isComplete("int a = ;"));
    }

    @Test
    void completionSuggestsMembersAndNames() throws Exception {
        kernel.eval("List<String> words = new ArrayList<>();");
        ReplacementOptions o = kernel.complete("int n = 1;\nwords.ad", 19);
        assertTrue(o.getReplacements().contains("add("), o.getReplacements().toString());
        assertEquals(17, o.getSourceStart());
        assertEquals(19, o.getSourceEnd());
        ReplacementOptions names = kernel.complete("Syste", 5);
        assertTrue(names.getReplacements().contains("System"), names.getReplacements().toString());
        assertEquals(0, names.getSourceStart());
        ReplacementOptions afterMagic = kernel.complete("%jars x.jar\nSyste", 17);
        assertTrue(afterMagic.getReplacements().contains("System"), afterMagic.getReplacements().toString());
        assertEquals(12, afterMagic.getSourceStart());
    }

    @Test
    void inspectionGivesSignatures() {
        DisplayData d = kernel.inspect("Math.max", 8, false);
        assertNotNull(d);
        assertTrue(text(d, "text/plain").contains("int Math.max(int a, int b)"), text(d, "text/plain"));
        assertNull(kernel.inspect("   ", 1, false));
    }

    @Test
    void anInterruptStopsAnEndlessLoopAndTheNextCellRuns() throws Exception {
        for (long delayMs : new long[] {0, 400}) {
            Thread[] runner = new Thread[1];
            Throwable[] thrown = new Throwable[1];
            runner[0] = new Thread(() -> {
                try {
                    kernel.eval("long spins = 0;\nwhile (true) { spins++; }");
                } catch (Throwable t) {
                    thrown[0] = t;
                }
            });
            runner[0].start();
            while (Cells.running().isEmpty()) {
                Thread.sleep(5);
            }
            Thread.sleep(delayMs);
            kernel.interrupt();
            runner[0].join(20_000);
            assertTrue(!runner[0].isAlive(), "the loop was not stopped (delay " + delayMs + " ms)");
            CellError e = (CellError) thrown[0];
            assertEquals(CellError.INTERRUPTED, e.ename());
            assertEquals("2", text(kernel.eval("1 + 1"), "text/plain"));
        }
    }

    /**
     * An interrupt stops the cell's experiment the careful way, through the cell's scope: the
     * rows so far kept, the status interrupted, the subject stopped; then the next cell runs.
     */
    @Test
    void anInterruptStopsTheCellsExperimentCleanly(@TempDir Path dir) throws Exception {
        Path exp = dir.resolve("interrupted");
        String cell = "var spec = ExperimentSpec.builder().name(\"interrupted\").subjects(\"java-netty\")"
                + ".workloads(\"plaintext\").rounds(20).duration(Duration.ofSeconds(1)).warmup(Duration.ofMillis(200))"
                + ".cooldown(Duration.ZERO).connections(4).build();\n"
                + "Experiment.create(Path.of(\"" + KernelFixture.HOME + "\"), spec, Path.of(\"" + exp + "\"),"
                + " List.of(\"test\"), new Runner.Progress() { }).execute();";
        Throwable[] thrown = new Throwable[1];
        Thread runner = new Thread(() -> {
            try {
                kernel.eval(cell);
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
        runner.start();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (rowsIn(exp) < 1 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(rowsIn(exp) >= 1, "the experiment recorded a run");
        kernel.interrupt();
        runner.join(60_000);
        assertTrue(!runner.isAlive(), "the cell was not stopped");
        assertEquals(CellError.INTERRUPTED, ((CellError) thrown[0]).ename());
        assertEquals("interrupted", new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(exp.resolve("experiment.json").toFile()).get("status").asText());
        assertTrue(rowsIn(exp) < 20, "stopped before the end");
        assertTrue(ProcessHandle.current().descendants()
                .noneMatch(p -> p.isAlive() && p.info().commandLine().orElse("").contains("NettyServer")),
                "the subject was stopped");
        assertEquals("2", text(kernel.eval("1 + 1"), "text/plain"));
    }

    private static long rowsIn(Path exp) throws java.io.IOException {
        Path csv = exp.resolve("runs.csv");
        return Files.exists(csv) ? Math.max(0, Files.readAllLines(csv).size() - 1) : 0;
    }

    @Test
    void jarsAndClasspathMagicsAddToTheClassPath(@TempDir Path dir) throws Exception {
        Path classes = compile(dir.resolve("src1"), dir.resolve("classes1"), "demo.Greeter",
                "package demo; public class Greeter { public static String hi() { return \"hi from a jar\"; } }");
        Path jar = dir.resolve("lib/greeter.jar");
        jar(classes, jar);
        // The glob is relative to the kernel's working directory.
        String glob = KernelFixture.HOME.relativize(dir) + "/lib/*.jar";
        assertEquals("hi from a jar", text(kernel.eval("%jars " + glob + "\ndemo.Greeter.hi()"), "text/plain"));

        Path other = compile(dir.resolve("src2"), dir.resolve("classes2"), "demo2.Other",
                "package demo2; public class Other { public static int answer() { return 42; } }");
        assertEquals("42", text(kernel.eval("%classpath " + other + "\n\ndemo2.Other.answer()"), "text/plain"));
    }

    @Test
    void badMagicsAreMagicErrors() {
        CellError none = assertThrows(CellError.class, () -> kernel.eval("%jars no/such/dir/*.jar\n1"));
        assertEquals(CellError.MAGIC, none.ename());
        assertTrue(none.evalue().startsWith("%jars: no jar matches no/such/dir/*.jar"), none.evalue());
        CellError missing = assertThrows(CellError.class, () -> kernel.eval("%classpath /no/such/folder"));
        assertEquals("%classpath: no such file or folder: /no/such/folder", missing.evalue());
        CellError unknown = assertThrows(CellError.class, () -> kernel.eval("%time\n1"));
        assertTrue(unknown.evalue().startsWith("unknown magic %time (line 1)"), unknown.evalue());
        CellError empty = assertThrows(CellError.class, () -> kernel.eval("%jars"));
        assertEquals("%jars needs at least one GLOB", empty.evalue());
    }

    @Test
    void aMagicLaterInTheCellIsJavaCode() {
        CellError e = assertThrows(CellError.class, () -> kernel.eval("int m = 1;\n%jars x.jar"));
        assertEquals(CellError.COMPILATION, e.ename());
    }

    @Test
    void aProgressBarIsOneDisplayUpdatedInPlace() throws Exception {
        kernel.eval("var bar = Progress.bar(\"rounds\");\nfor (int i = 1; i <= 1000; i++) bar.update(i, 1000, \"round \" + i);");
        assertEquals(1, fixture.shown.size());
        DisplayData first = fixture.shown.get(0);
        assertEquals("rounds 0", text(first, "text/plain"));
        String id = first.getDisplayId();
        assertNotNull(id);
        assertTrue(fixture.updated.size() >= 1 && fixture.updated.size() < 100, "updates are rate-limited: "
                + fixture.updated.size());
        DisplayData last = fixture.updated.get(fixture.updated.size() - 1);
        assertEquals(id, last.getDisplayId());
        assertEquals("rounds [" + "#".repeat(30) + "] 1000/1000 (100%)  round 1000", text(last, "text/plain"));
        assertTrue(text(last, "text/html").contains("<progress value=\"1000\" max=\"1000\"></progress>"),
                text(last, "text/html"));
    }

    @Test
    void aHeldProgressUpdateIsSentWhenTheCellEnds() throws Exception {
        kernel.eval("var quick = Progress.bar(\"quick\");\nquick.update(1, 10, \"one\");");
        assertEquals(1, fixture.updated.size());
        assertEquals("quick [###---------------------------] 1/10 (10%)  one", text(fixture.updated.get(0), "text/plain"));
    }

    @Test
    void progressBarsNeedARunningCell() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Progress.bar("outside"));
        assertTrue(e.getMessage().contains("Loadlab Jupyter kernel"), e.getMessage());
    }

    @Test
    void anExperimentsProgressDrivesTheBar() throws Exception {
        Workload plaintext = Workload.builtin().stream().filter(w -> w.name().equals("plaintext")).findFirst().orElseThrow();
        Subject netty = Subjects.load(KernelFixture.HOME.resolve("subjects"), Workload.builtinNames()).byName("java-netty")
                .orElseThrow();
        Plan.Run run = new Plan.Run(3, 2, 1, new Plan.Instance(netty, Map.of(), List.of(plaintext)), plaintext);
        NotebookProgress progress = new NotebookProgress(Progress.bar(kernel, "experiment"));
        progress.runStarting(run, 2, 4);
        progress.runFinished(run, new RunRow(Map.of("status", "ok", "rps", "12345.6")), 3, 4);
        // Both updates came within the rate limit: the latest is sent when the interval is over.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (fixture.updated.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, fixture.shown.size());
        assertEquals(1, fixture.updated.size());
        DisplayData last = fixture.updated.get(fixture.updated.size() - 1);
        assertEquals(fixture.shown.get(0).getDisplayId(), last.getDisplayId());
        assertEquals("experiment [" + "#".repeat(22) + "--------] 3/4 (75%)  run 3 (java-netty, plaintext) 12,346 requests/s",
                text(last, "text/plain"));
    }

    /** Compiles one class into a folder. */
    private static Path compile(Path src, Path out, String className, String code) throws Exception {
        Path file = src.resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, code);
        Files.createDirectories(out);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(), file.toString());
        assertEquals(0, rc);
        return out;
    }

    private static void jar(Path classes, Path jar) throws Exception {
        Files.createDirectories(jar.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString()));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
    }

    @Test
    void languageInfoIsJava() {
        assertEquals("java", kernel.getLanguageInfo().getName());
        assertEquals("java", kernel.getLanguageInfo().getPygmentsLexer());
        assertEquals(".java", kernel.getLanguageInfo().getFileExtension());
        assertEquals("text/x-java-source", kernel.getLanguageInfo().getMimetype());
        assertEquals(System.getProperty("java.version"), kernel.getLanguageInfo().getVersion());
    }
}
