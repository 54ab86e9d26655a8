package io.loadlab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code docs/reference/cli.md}: every command's synopsis, description and options, made from
 * picocli's model of the command line, the one {@code --help} prints from. A test compares the
 * committed page with this one, so the page cannot drift from the code; after a change to a
 * command, write the page again with {@code java -cp target/loadlab-0.1.0-SNAPSHOT.jar
 * io.loadlab.cli.CliReference docs/reference/cli.md}.
 */
final class CliReference {

    /** The page's path in the repository, the one the test reads. */
    static final Path PAGE = Path.of("docs/reference/cli.md");

    private CliReference() {
    }

    /** Writes the page to the path given (default {@link #PAGE}). */
    public static void main(String[] args) throws IOException {
        Path page = args.length > 0 ? Path.of(args[0]) : PAGE;
        Files.createDirectories(page.toAbsolutePath().getParent());
        Files.writeString(page, markdown());
    }

    /** The whole page. */
    static String markdown() {
        CommandLine root = Main.full();
        StringBuilder md = new StringBuilder();
        md.append("# `loadlab` command reference\n\n")
                .append("Made from the command line's own model by `io.loadlab.cli.CliReference` (a test fails when\n")
                .append("it differs): the same texts as `loadlab COMMAND --help`. Durations take `ms`, `s` and `m`\n")
                .append("(`500ms`, `10s`). Exit codes: 0 success, 1 a failed run, 2 a usage error.\n\n");
        for (String name : root.getSubcommands().keySet()) {
            if (!name.equals("help")) {
                md.append("- [`loadlab ").append(name).append("`](#loadlab-").append(name).append(")\n");
            }
        }
        root.getSubcommands().forEach((name, cl) -> {
            if (!name.equals("help")) {
                command(md, cl.getCommandSpec());
            }
        });
        return md.toString();
    }

    /** One command: its synopsis, description, arguments and options, footer, then its own subcommands. */
    private static void command(StringBuilder md, CommandSpec spec) {
        usage(md, spec);
        description(md, spec.usageMessage().footer());
        spec.subcommands().values().forEach(sub -> command(md, sub.getCommandSpec()));
    }

    /** The synopsis, the description and a table of the arguments and options. */
    private static void usage(StringBuilder md, CommandSpec spec) {
        md.append(md.length() > 1 && md.charAt(md.length() - 2) == '\n' ? "" : "\n");
        md.append("## `").append(spec.qualifiedName()).append("`\n\n");
        md.append("```\n").append(spec.commandLine().getHelp().synopsis(0).stripTrailing()).append("\n```\n\n");
        description(md, spec.usageMessage().description());
        List<ArgSpec> args = new ArrayList<>();
        spec.positionalParameters().stream().filter(p -> !p.hidden()).forEach(args::add);
        spec.options().stream().filter(o -> !o.hidden()).forEach(args::add);
        if (args.isEmpty()) {
            return;
        }
        // No default column: the commands say each default in the option's own text, as --help shows it.
        md.append("| argument or option | meaning |\n|---|---|\n");
        for (ArgSpec arg : args) {
            md.append("| ").append(cell(names(arg))).append(" | ").append(cell(String.join("\n", arg.renderedDescription())))
                    .append(" |\n");
        }
        md.append("\n");
    }

    /** The description's paragraphs, its indented lines (examples) as code blocks. */
    private static void description(StringBuilder md, String[] lines) {
        boolean code = false;
        for (String source : lines) {
            // A command's description is a format string (--help prints it through String.format).
            String line = source.replace("%%", "%");
            boolean indented = line.startsWith(" ");
            if (indented != code && !(code && line.isEmpty())) {
                if (code) {
                    closeCode(md);
                } else {
                    md.append("```\n");
                }
                code = indented;
            }
            if (code) {
                md.append(line.isEmpty() ? "" : line.substring(Math.min(2, line.length() - line.stripLeading().length())))
                        .append("\n");
            } else if (!line.isEmpty()) {
                md.append(line).append("\n\n");
            }
        }
        if (code) {
            closeCode(md);
        }
    }

    /** Ends a code block, without the blank lines its text ended with. */
    private static void closeCode(StringBuilder md) {
        while (md.length() > 1 && md.charAt(md.length() - 1) == '\n' && md.charAt(md.length() - 2) == '\n') {
            md.setLength(md.length() - 1);
        }
        md.append("```\n\n");
    }

    /** {@code -c, --connections=N} for an option, {@code URL} for a positional parameter. */
    private static String names(ArgSpec arg) {
        if (arg instanceof OptionSpec o) {
            boolean flag = o.typeInfo().isBoolean() && o.arity().max() == 0;
            return "`" + String.join(", ", o.names()) + (flag ? "" : "=" + o.paramLabel()) + "`";
        }
        return "`" + arg.paramLabel() + "`";
    }

    /** Text for one table cell: HTML's characters and pipes escaped, lines joined with line breaks. */
    private static String cell(String text) {
        return text.strip().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")
                .replace("\n", "<br>");
    }
}
