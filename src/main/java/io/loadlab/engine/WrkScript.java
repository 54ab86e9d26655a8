package io.loadlab.engine;

import io.loadlab.load.RequestTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * The Lua script that makes wrk send a workload's request: its method, the built-in engine's body
 * bytes, and {@code {rand:LO-HI}} keys drawn with {@code math.random} per request, seeded per thread.
 */
final class WrkScript {

    private WrkScript() {
    }

    /**
     * The Lua script wrk needs for a method other than GET, a body, or substitutions; empty for a
     * plain GET, which wrk then sends without running Lua per request.
     */
    static Optional<String> of(ExternalLoad load) {
        Matcher m = RequestTemplate.SUBSTITUTION.matcher(load.path());
        boolean substitutes = m.find();
        if (load.method().equals("GET") && load.bodySize() == 0 && !substitutes) {
            return Optional.empty();
        }
        StringBuilder s = new StringBuilder();
        s.append("-- Written by Loadlab: the workload's request for wrk.\n");
        s.append("wrk.method = ").append(lua(load.method())).append('\n');
        if (load.bodySize() > 0) {
            s.append("local parts = {}\n")
                    .append("for i = 0, ").append(load.bodySize() - 1).append(" do parts[#parts + 1] = string.char(97 + i % 26) end\n")
                    .append("wrk.body = table.concat(parts)\n");
        } else if (!load.method().equals("GET") && !load.method().equals("HEAD")) {
            s.append("wrk.headers[\"Content-Length\"] = \"0\"\n");
        }
        if (substitutes) {
            // setup() runs in the main Lua state, once per thread; each thread then has its own state.
            s.append("local next_id = 0\n")
                    .append("function setup(thread)\n  thread:set(\"loadlab_id\", next_id)\n  next_id = next_id + 1\nend\n")
                    .append("function init(args)\n  math.randomseed(").append(load.seed())
                    .append(" + loadlab_id * 7919)\n  loadlab_seq = loadlab_id\nend\n")
                    .append("function request()\n  local path = ");
            List<String> parts = new ArrayList<>();
            int at = 0;
            m.reset();
            boolean seq = false;
            while (m.find()) {
                if (m.start() > at) {
                    parts.add(lua(load.path().substring(at, m.start())));
                }
                if (m.group(1).equals("seq")) {
                    parts.add("loadlab_seq");
                    seq = true;
                } else {
                    parts.add("math.random(" + m.group(2) + ", " + m.group(3) + ")");
                }
                at = m.end();
            }
            if (at < load.path().length()) {
                parts.add(lua(load.path().substring(at)));
            }
            s.append(String.join(" .. ", parts)).append('\n');
            if (seq) {
                s.append("  loadlab_seq = loadlab_seq + ").append(load.threads()).append('\n');
            }
            s.append("  return wrk.format(nil, path)\nend\n");
        }
        return Optional.of(s.toString());
    }

    /** A Lua string literal. */
    private static String lua(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                b.append(String.format(Locale.ROOT, "\\%03d", (int) c & 0xff));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

}
