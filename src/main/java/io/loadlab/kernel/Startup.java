package io.loadlab.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What every kernel's JShell runs first: JShell's default imports, Loadlab's imports (those of
 * {@code src/main/jshell/loadlab.jsh}, the start-up file of {@code loadlab jshell}), and the
 * helper methods cells call ({@code display}, {@code render}, {@code svg}, and {@code show} for a
 * table, as in JShell, or a chart, shown below the cell).
 */
final class Startup {

    /** The imports of JShell's DEFAULT start-up, which the JShell API does not add by itself. */
    static final List<String> DEFAULT_IMPORTS = List.of("java.io.*", "java.math.*", "java.net.*", "java.nio.file.*",
            "java.util.*", "java.util.concurrent.*", "java.util.function.*", "java.util.prefs.*", "java.util.regex.*",
            "java.util.stream.*");

    /**
     * Loadlab's imports when {@code loadlab.jsh} cannot be found (a kernel started from a copied
     * jar); {@code StartupTest} checks that they equal the file's.
     */
    static final List<String> LOADLAB_IMPORTS = List.of("io.loadlab.Loadlab", "io.loadlab.data.*", "io.loadlab.engine.*",
            "io.loadlab.experiment.*", "io.loadlab.format.*", "io.loadlab.importer.*", "io.loadlab.load.*",
            "io.loadlab.plot.*", "io.loadlab.stats.*", "io.loadlab.workload.*",
            "tech.tablesaw.api.*", "org.HdrHistogram.Histogram", "java.nio.file.*", "java.time.Duration");

    /**
     * {@code show(table)} of {@code loadlab.jsh}, word for word, so that a cell prints a table as
     * JShell does; {@code StartupTest} checks that the file holds exactly this method.
     */
    static final String SHOW_TABLE = "/** Prints a table as aligned text, its numbers rounded for reading (rps 117,541,"
            + " ratio 0.614, p 0.043), 50 rows at most. */\n"
            + "void show(tech.tablesaw.api.Table table) {\n"
            + "    System.out.print(io.loadlab.format.ShownTable.of(table, io.loadlab.format.ShownTable.MAX_ROWS).text());\n"
            + "}";

    /** What the kernel adds for notebooks: progress bars and the DisplayData that render() returns. */
    static final List<String> KERNEL_IMPORTS = List.of("io.loadlab.kernel.Progress", "io.loadlab.kernel.NotebookProgress",
            "io.github.spencerpark.jupyter.kernel.display.DisplayData");

    private Startup() {
    }

    /** The start-up snippets of the kernel with this id. */
    static List<String> snippets(int kernelId, Optional<Path> home) {
        List<String> imports = new ArrayList<>(DEFAULT_IMPORTS);
        imports.addAll(home.map(h -> h.resolve("src/main/jshell/loadlab.jsh")).filter(Files::isRegularFile)
                .map(Startup::importsOf).orElse(LOADLAB_IMPORTS));
        imports.addAll(KERNEL_IMPORTS);
        List<String> snippets = imports.stream().distinct().map(i -> "import " + i + ";").collect(Collectors.toList());
        String k = "io.loadlab.kernel.Cells.kernel(" + kernelId + ")";
        snippets.add("/** Shows a value below the cell now (a table, a chart, a histogram, anything). */\n"
                + "void display(Object value) { " + k + ".display(value); }");
        snippets.add("/** The value's display: return it as a cell's last expression to show it. */\n"
                + "DisplayData render(Object value) { return " + k + ".render(value); }");
        snippets.add("/** The value's display as the given MIME types only, e.g. render(chart, \"image/svg+xml\"). */\n"
                + "DisplayData render(Object value, String... mimeTypes) { return " + k + ".render(value, mimeTypes); }");
        snippets.add(SHOW_TABLE);
        // JShell's show(chart) opens a window; in a notebook the chart belongs below the cell.
        snippets.add("/** Shows a chart below the cell, as display(chart) does. */\n"
                + "void show(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) { display(chart); }");
        snippets.add("/** A chart as SVG. */\n"
                + "DisplayData svg(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) { "
                + "return io.loadlab.kernel.Renderers.svg(chart); }");
        return snippets;
    }

    /** The imported names of a JShell start-up file, such as {@code tech.tablesaw.api.*}. */
    static List<String> importsOf(Path jsh) {
        try {
            return Files.readAllLines(jsh).stream().map(String::strip)
                    .filter(l -> l.startsWith("import ") && l.endsWith(";"))
                    .map(l -> l.substring("import ".length(), l.length() - 1).strip())
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jsh, e);
        }
    }

    /**
     * Loadlab's folder: {@code -Dloadlab.home}, else the checkout this class was loaded from
     * ({@code HOME/target/classes} or {@code HOME/target/*.jar}).
     */
    static Optional<Path> home() {
        String property = System.getProperty("loadlab.home");
        if (property != null) {
            return Optional.of(Path.of(property).toAbsolutePath().normalize());
        }
        CodeSource source = Startup.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return Optional.empty();
        }
        try {
            Path code = Path.of(source.getLocation().toURI());
            for (Path p = code; p != null; p = p.getParent()) {
                if (p.getFileName() != null && p.getFileName().toString().equals("target") && p.getParent() != null
                        && Files.isDirectory(p.getParent().resolve("src/main/jshell"))) {
                    return Optional.of(p.getParent());
                }
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
