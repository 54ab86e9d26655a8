package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.util.GlobFinder;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The line magics a cell may start with: {@code %classpath PATH...} adds jars or class folders
 * ({@code :}-separated lists allowed), {@code %jars GLOB...} adds the jars a glob matches. Relative
 * paths and globs are resolved against the kernel's working directory (the notebook's folder).
 */
final class Magics {

    /** One magic line: {@code %name arg...}. */
    record Line(String name, List<String> args, int lineNumber) {}

    /**
     * A cell split into its leading magic lines and its code. The code keeps the cell's offsets:
     * each magic line is replaced by spaces, so positions and line numbers stay those of the cell.
     */
    record Parsed(List<Line> magics, String code) {}

    private Magics() {
    }

    /** Splits off the magic lines at the start of a cell (blank lines may lie between them). */
    static Parsed parse(String cell) {
        List<Line> magics = new ArrayList<>();
        StringBuilder code = new StringBuilder(cell.length());
        int pos = 0;
        int lineNumber = 1;
        boolean inHeader = true;
        while (pos < cell.length()) {
            int nl = cell.indexOf('\n', pos);
            int end = nl < 0 ? cell.length() : nl;
            String line = cell.substring(pos, end);
            String stripped = line.strip();
            if (inHeader && stripped.startsWith("%")) {
                List<String> words = words(stripped.substring(1));
                String name = words.isEmpty() ? "" : words.get(0);
                magics.add(new Line(name, words.isEmpty() ? List.of() : words.subList(1, words.size()), lineNumber));
                code.append(" ".repeat(line.length()));
            } else {
                inHeader = inHeader && stripped.isEmpty();
                code.append(line);
            }
            if (nl >= 0) {
                code.append('\n');
            }
            pos = end + 1;
            lineNumber++;
        }
        return new Parsed(List.copyOf(magics), code.toString());
    }

    /**
     * Applies one magic line to the session.
     *
     * @throws CellError ({@link CellError#MAGIC}) for an unknown magic, a path that does not exist
     *                   or a glob that matches no jar
     */
    static void apply(Line magic, Session session, Path workingDir) throws CellError {
        switch (magic.name()) {
            case "classpath" -> {
                List<Path> entries = new ArrayList<>();
                for (String arg : requireArgs(magic, "PATH")) {
                    for (String part : arg.split(File.pathSeparator)) {
                        if (part.isEmpty()) {
                            continue;
                        }
                        Path p = workingDir.resolve(part).normalize();
                        if (!Files.exists(p)) {
                            throw CellError.of(CellError.MAGIC, "%classpath: no such file or folder: " + p);
                        }
                        entries.add(p);
                    }
                }
                entries.forEach(session::addToClasspath);
            }
            case "jars" -> {
                List<Path> jars = new ArrayList<>();
                for (String glob : requireArgs(magic, "GLOB")) {
                    List<Path> matched = jarsMatching(glob, workingDir);
                    if (matched.isEmpty()) {
                        throw CellError.of(CellError.MAGIC, "%jars: no jar matches " + glob + " (relative to "
                                + workingDir + ")");
                    }
                    jars.addAll(matched);
                }
                jars.forEach(session::addToClasspath);
            }
            default -> throw CellError.of(CellError.MAGIC, "unknown magic %" + magic.name()
                    + " (line " + magic.lineNumber() + "): this kernel knows %classpath PATH and %jars GLOB");
        }
    }

    private static List<String> requireArgs(Line magic, String what) throws CellError {
        if (magic.args().isEmpty()) {
            throw CellError.of(CellError.MAGIC, "%" + magic.name() + " needs at least one " + what);
        }
        return magic.args();
    }

    private static List<Path> jarsMatching(String glob, Path workingDir) throws CellError {
        Path literal = Path.of(glob);
        String absolute = literal.isAbsolute() ? glob : workingDir.toString() + File.separator + glob;
        List<Path> jars = new ArrayList<>();
        try {
            for (Path p : new GlobFinder(absolute).computeMatchingFiles()) {
                if (p.getFileName().toString().endsWith(".jar")) {
                    jars.add(p.toAbsolutePath().normalize());
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw CellError.of(CellError.MAGIC, "%jars: cannot list " + glob + ": " + e);
        }
        jars.sort(null);
        return jars;
    }

    /** Splits magic arguments on white space; double or single quotes keep spaces in one argument. */
    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char c : text.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any) {
                    words.add(word.toString());
                    word.setLength(0);
                    any = false;
                }
            } else {
                word.append(c);
                any = true;
            }
        }
        if (any) {
            words.add(word.toString());
        }
        return words;
    }
}
