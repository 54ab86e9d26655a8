package io.loadlab.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * The {@code loadlab} command line run in this JVM, its output captured: what the CLI tests
 * assert on.
 *
 * @param code the exit code {@link Main#execute} returned
 * @param out  what went to standard output
 * @param err  what went to standard error
 */
public record CliRun(int code, String out, String err) {

    /** Runs {@code loadlab ARGS...}. */
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }
}
