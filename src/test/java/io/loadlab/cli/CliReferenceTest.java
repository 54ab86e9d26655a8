package io.loadlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code docs/reference/cli.md} says what {@code --help} says, command by command. */
class CliReferenceTest {

    private static final Pattern LONG_OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");

    @Test
    void theCommittedPageIsTheOneTheCommandLineMakes() throws IOException {
        assertEquals(CliReference.markdown(), Files.readString(CliReference.PAGE), CliReference.PAGE
                + " differs from the commands' --help: write it again with `java -cp target/loadlab-0.1.0-SNAPSHOT.jar"
                + " io.loadlab.cli.CliReference` after `mvn -q package -DskipTests`");
    }

    @Test
    void everyOptionInEachCommandsHelpIsInItsSection() {
        String page = CliReference.markdown();
        List<String> missing = new ArrayList<>();
        for (String command : commands(page)) {
            String section = section(page, command);
            CliRun help = CliRun.of(command, "--help");
            assertEquals(0, help.code(), command + ": " + help.err());
            Set<String> options = new TreeSet<>();
            Matcher m = LONG_OPTION.matcher(help.out().substring(help.out().indexOf("\n")));
            while (m.find()) {
                options.add(m.group());
            }
            assertTrue(options.contains("--help"), command + " --help lists no --help: " + help.out());
            options.stream().filter(o -> !section.contains(o))
                    .forEach(o -> missing.add("loadlab " + command + " " + o));
        }
        assertEquals(List.of(), missing, "options in --help that the reference page does not list");
    }

    /** The commands the page has a section for, in its order. */
    private static List<String> commands(String page) {
        List<String> commands = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^## `loadlab ([a-z]+)`$").matcher(page);
        while (m.find()) {
            commands.add(m.group(1));
        }
        assertTrue(commands.containsAll(List.of("load", "run", "compare", "report", "demo", "agent", "kernel")), commands.toString());
        return commands;
    }

    /** The page's section of one command with its own subcommands' ({@code kernel install}), up to the next command. */
    private static String section(String page, String command) {
        int start = page.indexOf("## `loadlab " + command + "`");
        Matcher next = Pattern.compile("\n## `loadlab (?!" + command + " )").matcher(page);
        return page.substring(start, next.find(start + 1) ? next.start() : page.length());
    }
}
