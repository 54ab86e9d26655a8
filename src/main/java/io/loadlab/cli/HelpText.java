package io.loadlab.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Reflows the help texts of every command: the annotations give descriptions as arrays of
 * source-width lines, and picocli prints each element on a line of its own, wrapping the long
 * ones, which leaves a short orphan after nearly every line. Joining the lines of a paragraph
 * lets picocli wrap it once, at the real width of the column.
 */
final class HelpText {

    private HelpText() {
    }

    /** Reflows the descriptions of {@code cl}, its options and all its subcommands, in place. */
    static void reflow(CommandLine cl) {
        CommandSpec spec = cl.getCommandSpec();
        spec.usageMessage().description(paragraphs(spec.usageMessage().description()));
        List<OptionSpec> options = new ArrayList<>(spec.options());
        if (options.stream().anyMatch(o -> o.description().length > 1)) {
            // Options are immutable: rebuild them all, in their order, so that the help keeps it.
            options.forEach(spec::remove);
            for (OptionSpec o : options) {
                spec.addOption(o.description().length > 1
                        ? o.toBuilder().description(paragraphs(o.description())).build() : o);
            }
        }
        cl.getSubcommands().values().forEach(HelpText::reflow);
    }

    /**
     * Joins lines into paragraphs: an empty line ends a paragraph, and a line that starts with
     * blanks (an example, an indented list) stays a line of its own.
     */
    static String[] paragraphs(String[] lines) {
        List<String> out = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        for (String line : lines) {
            boolean own = line.isEmpty() || line.startsWith(" ");
            if (own || paragraph.length() == 0) {
                flush(out, paragraph);
            }
            if (own) {
                out.add(line);
            } else {
                paragraph.append(paragraph.length() == 0 ? "" : " ").append(line.strip());
            }
        }
        flush(out, paragraph);
        return out.toArray(String[]::new);
    }

    private static void flush(List<String> out, StringBuilder paragraph) {
        if (paragraph.length() > 0) {
            out.add(paragraph.toString());
            paragraph.setLength(0);
        }
    }
}
