package io.loadlab.importer;

import io.loadlab.data.RunColumn;
import io.loadlab.load.Protocol;
import io.loadlab.load.RequestTemplate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The load tools Loadlab knows, each carrying its own rules: the name users type ({@code --engine},
 * {@code loadlab import}) and the {@code engine} column holds, how its output is read, and, for wrk,
 * h2load and oha, which Loadlab also runs as engines ({@link #command()}), what it can load: a fixed
 * rate, HTTP/2, durations, request paths. The engines ({@code io.loadlab.engine.ToolEngine}) ask these
 * rules and never test which tool they hold. The enum lives here, below the engines, because the
 * engines read the tools' output with this package and this package must not depend on them.
 * Immutable and thread-safe.
 */
public enum Tool {
    /** wrk 4: HTTP/1.1 over TCP or TLS, a closed loop, whole-second durations; keys drawn in its Lua script. */
    WRK("wrk", (t, text) -> WrkParser.parse(t, text, RunColumn.LoadModel.CLOSED_LOOP),
            Optional.of(new Command("apt-get install wrk", "-v")),
            EnumSet.of(Rule.WHOLE_SECONDS)),
    /** wrk2 (wrk with a fixed rate and HdrHistogram output): imported only. */
    WRK2("wrk2", (t, text) -> WrkParser.parse(t, text, RunColumn.LoadModel.FIXED_RATE), Optional.empty(),
            EnumSet.noneOf(Rule.class)),
    /**
     * oha: HTTP/1.1, h2 or h2c, a closed loop or a fixed rate; keys from a URL file; TLS errors counted
     * apart. Its {@code --output-format json} and its text output are both read.
     */
    OHA("oha", (t, text) -> text.strip().startsWith("{") ? OhaJsonParser.parse(text) : HeyParser.parse(t, text, true),
            Optional.of(new Command("scripts/setup test (cargo install oha --locked, into ~/.cache/loadlab/tools)",
                    "--version")),
            EnumSet.of(Rule.FIXED_RATE, Rule.HTTP2, Rule.KEYS_FROM_FILE, Rule.TLS_ERRORS_APART)),
    /** hey: imported only. */
    HEY("hey", (t, text) -> HeyParser.parse(t, text, false), Optional.empty(), EnumSet.noneOf(Rule.class)),
    /** nghttp2's h2load: HTTP/1.1, h2 or h2c, a closed loop; keys from a URI file walked in order. */
    H2LOAD("h2load", (t, text) -> H2loadParser.parse(text),
            Optional.of(new Command("apt-get install nghttp2-client", "--version")),
            EnumSet.of(Rule.HTTP2, Rule.KEYS_FROM_FILE)),
    /** ApacheBench: imported only. */
    AB("ab", (t, text) -> AbParser.parse(text), Optional.empty(), EnumSet.noneOf(Rule.class));

    /** More keys than this are not written to the URL file of a tool that takes keys from one. */
    public static final int MAX_URIS = 100_000;

    /**
     * How Loadlab runs a tool: its executable is its {@link #label()}.
     *
     * @param install     how to install it, for the message when it is missing
     * @param versionFlag the flag that makes it print its version on the first line
     */
    public record Command(String install, String versionFlag) {
    }

    /** What a tool Loadlab runs can do, or needs, beyond a closed loop over HTTP/1.1. */
    private enum Rule {
        /** It can load at a fixed rate (with latency counted from the intended send time). */
        FIXED_RATE,
        /** It speaks h2 over TLS and h2c. */
        HTTP2,
        /** It takes durations in whole seconds only. */
        WHOLE_SECONDS,
        /** It takes the keys of {@code {rand:LO-HI}} from a file of URLs, not from a generator. */
        KEYS_FROM_FILE,
        /** It counts TLS errors apart from connect errors. */
        TLS_ERRORS_APART
    }

    /** A tool's reader of its own output. */
    private interface Parser {
        ImportedRun parse(Tool tool, String text);
    }

    private final String label;
    private final Parser parser;
    private final Optional<Command> command;
    private final Set<Rule> rules;

    Tool(String label, Parser parser, Optional<Command> command, Set<Rule> rules) {
        this.label = label;
        this.parser = parser;
        this.command = command;
        this.rules = rules;
    }

    /** The tool's name as users type it; the value of the {@code engine} column. */
    public String label() {
        return label;
    }

    /** How Loadlab runs the tool as an engine; empty for the tools whose output it only imports. */
    public Optional<Command> command() {
        return command;
    }

    /** Whether Loadlab can run the tool at a fixed rate ({@code run --rate}): oha only. */
    public boolean fixedRate() {
        return rules.contains(Rule.FIXED_RATE);
    }

    /** Whether the tool's output counts TLS errors apart (oha), so that a TLS run's {@code errors_tls} is known. */
    public boolean countsTlsErrorsApart() {
        return rules.contains(Rule.TLS_ERRORS_APART);
    }

    /**
     * Why Loadlab cannot load over {@code protocol} with this tool, in one line, or empty when it can:
     * wrk speaks HTTP/1.1 only (over TCP or TLS); h2load and oha HTTP/1.1, h2 over TLS and h2c.
     */
    public Optional<String> cannotSpeak(Protocol protocol) {
        if (command.isEmpty()) {
            return Optional.of(notRun());
        }
        if (protocol.isHttp2() && !rules.contains(Rule.HTTP2)) {
            return Optional.of(label + " speaks HTTP/1.1 only, not " + protocol.label());
        }
        return Optional.empty();
    }

    /**
     * Why Loadlab cannot run this request path or these durations with this tool, or empty when it can.
     *
     * @param durations the durations it would run for (window, warm-up); zero ones are skipped
     */
    public Optional<String> cannotRun(String path, List<Duration> durations) {
        if (command.isEmpty()) {
            return Optional.of(notRun());
        }
        if (rules.contains(Rule.WHOLE_SECONDS)) {
            for (Duration d : durations) {
                if (!d.isZero() && d.toMillis() % 1000 != 0) {
                    return Optional.of(label + " takes whole seconds, got " + d.toMillis() + " ms: use a duration and"
                            + " warm-up such as 5s");
                }
            }
        }
        return rules.contains(Rule.KEYS_FROM_FILE) ? keyFileLimit(path) : Optional.empty();
    }

    /** Reads an output of this tool. */
    ImportedRun parse(String text) {
        return parser.parse(this, text);
    }

    private String notRun() {
        return "Loadlab reads " + label + "'s output (loadlab import) but does not run it";
    }

    /**
     * A tool that takes keys from a file of URLs has no {@code {seq}}, one {@code {rand:LO-HI}} per path
     * and at most {@link #MAX_URIS} keys.
     */
    private Optional<String> keyFileLimit(String path) {
        Matcher m = RequestTemplate.SUBSTITUTION.matcher(path);
        int n = 0;
        while (m.find()) {
            n++;
            if (m.group(1).equals("seq")) {
                return Optional.of(label + " cannot send a new {seq} number with each request (path " + path
                        + "); use --engine wrk or builtin for this workload");
            }
            long count = Long.parseLong(m.group(3)) - Long.parseLong(m.group(2)) + 1;
            if (count > MAX_URIS) {
                return Optional.of(label + " needs every key of " + m.group() + " in a file, and " + count
                        + " keys is more than " + MAX_URIS + "; use --engine wrk or builtin");
            }
        }
        if (n > 1) {
            return Optional.of(label + " can take one {rand:LO-HI} per path, " + path + " has " + n);
        }
        return Optional.empty();
    }
}
