package io.loadlab.cli;

import io.loadlab.agent.AgentSet;
import io.loadlab.agent.Coordinator;
import io.loadlab.agent.RemoteResult;
import io.loadlab.agent.RemoteSummary;
import io.loadlab.load.LoadListener;
import io.loadlab.load.LoadSpec;
import io.loadlab.load.summary.TextSummary;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code loadlab load --agents}: the run on agents, shown as a local run is, with the agents beside it. */
final class RemoteLoad {

    private final PrintWriter out;
    private final boolean json;
    private final Path hlog;
    private final String tag;

    RemoteLoad(PrintWriter out, boolean json, Path hlog, String tag) {
        this.out = out;
        this.json = json;
        this.hlog = hlog;
        this.tag = tag;
    }

    /** Runs, prints, writes the hlog; the exit code is 0 only when every agent finished. */
    int run(AgentSet agents, LoadSpec spec) throws IOException {
        Coordinator c = new Coordinator(agents, spec.connectTimeout().plusSeconds(5));
        RemoteResult r = c.run(spec, new LoadListener() {
            @Override
            public void started() {
                if (!json) {
                    out.print(TextSummary.header(spec).stripTrailing() + ", on " + agents.addresses().size()
                            + " agents\n");
                    out.flush();
                }
            }
        });
        if (hlog != null && r.merged().isPresent()) {
            try (OutputStream o = Files.newOutputStream(hlog)) {
                RemoteSummary.hlog(r, tag, o);
            }
        }
        out.println(json ? RemoteSummary.json(r) : RemoteSummary.text(r));
        out.flush();
        if (!r.ok()) {
            throw new CliException(r.status() + ": " + r.error().orElse("not every agent finished"), Main.EXIT_FAILED);
        }
        if (r.merged().map(m -> m.requests() == 0).orElse(true)) {
            throw new CliException("no request was answered: see the errors above", Main.EXIT_FAILED);
        }
        return 0;
    }
}
