/**
 * One interface for everything that loads a subject: {@link Engine} takes one run's {@link RunSpec} and
 * gives one {@link EngineResult} (with its {@link Latency}). The engines are the built-in one in this JVM
 * ({@link Engine#BUILTIN}, {@code BuiltinEngine} around {@code load.NettyLoad}) and wrk, h2load and oha as
 * separate processes ({@link Engine#WRK}, {@link Engine#H2LOAD}, {@link Engine#OHA}: each a
 * {@link ToolEngine}, an {@code importer.Tool} with its command line, {@code ToolEngine.Arguments});
 * {@code agent.AgentEngine} is one more, above this package. {@link ExternalEngines} runs a tool pinned
 * on an {@link ExternalLoad} over a {@link ToolProtocol} (HTTP/1.1, TLS, h2 and h2c where the tool speaks
 * them) and reads its output back into an {@link ExternalRun}; {@code WrkScript} writes wrk's Lua.
 * {@link EngineException} when an engine cannot run a workload or its run failed.
 *
 * <p>It uses {@code importer} (the tools, their rules and their readers), {@code data} (the
 * {@code runs.csv} names of what a tool reports), {@code subject} (a subject's log tail), {@code host}
 * (CPUs, {@code /proc}, the PATH, the cache's {@code tools/bin}) and {@code load}, and nothing that plans
 * or stores experiments: {@code agent}, {@code experiment}, {@code kernel} and {@code cli} use it, never
 * the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>The runner never asks which engine a run has: {@code experiment} plans one run per engine (the
 *       engines of a workload rotated by round, so that none always runs first on a warm subject), hands
 *       each a {@link RunSpec} and turns any {@link EngineResult} into a row. The engine decides its
 *       warm-up and what it can report; a figure it does not measure is empty, never 0 (h2load prints
 *       no percentiles; no tool gives histograms, so external runs add nothing to {@code latency.hlog}).
 *       What an engine cannot do is known before anything runs: the spec refuses a rate for wrk and
 *       h2load, which run a closed loop only ({@link Engine#fixedRate()}), and a duration that is not
 *       whole seconds for wrk; the plan skips, with the reason, a workload an engine cannot send
 *       ({@link Engine#cannotRun}: h2load and oha take keys from a file and cannot send {@code {seq}})
 *       and a protocol it cannot speak ({@link Engine#cannotSpeak}: wrk speaks HTTP/1.1 only).</li>
 *   <li>{@link ToolEngine#run} runs the tool twice in the same subject process: a warm-up, then the
 *       measured run. A fixed warm-up is a run of the tool; a steady-state warm-up is the built-in
 *       engine's (a tool cannot say when throughput settles) followed by 1 s of the tool, which warms its
 *       own connections. The server's CPU is read just before the tool starts and just after it exits,
 *       so the window includes the tool's connecting and exit (tens of ms in seconds).</li>
 *   <li>The workload is carried over, not approximated: wrk gets a Lua script ({@code WrkScript}) with
 *       the method, the built-in engine's body bytes and {@code {rand:LO-HI}} keys drawn with
 *       {@code math.random} per request, seeded per thread; h2load gets a body file and a URI file with
 *       every key once in a shuffled order seeded by the run, which each connection walks from its start
 *       (h2load cannot draw keys); oha takes the same files and picks a URL at random per request. A
 *       key file holds at most {@code importer.Tool.MAX_URIS} (100,000) keys and one {@code {rand}} per
 *       path. An engine that does not send a project workload's own headers and body and check its
 *       {@code body-contains} ({@link Engine#sendsWholeRequests()}: only the built-in one does) is left
 *       out of such workloads, never run with a request other than the one declared.</li>
 *   <li>Command lines ({@link ExternalEngines}), after {@code [setpriv --pdeathsig KILL]} and
 *       {@code [taskset -c LOAD_CPUS]}: {@code wrk -t T -c C -d Ns --latency [-s request.lua] URL};
 *       {@code h2load [--h1] -t T -c C -D Nms [-m streams] [-d body] [-H ':method: PUT']
 *       (URL | -i uris.txt)}; {@code oha --no-tui --output-format json -z Nms -c C --worker-threads T
 *       -m M [--http2 -p streams] [--cacert CA] [--insecure] [-D body] [-q R --latency-correction]
 *       (URL | --urls-from-file uris.txt)}. The tool is found on the PATH, then in the cache's
 *       {@code tools/bin}. oha's worker threads are set because its default is one per physical core,
 *       whatever the pinning. wrk and h2load verify no
 *       certificate; oha verifies against {@code --cacert}, and it alone counts TLS errors apart.</li>
 *   <li>oha holds {@code --rate} with {@code -q R --latency-correction}, so that latency counts from the
 *       instant its timer released the request, as the built-in engine counts from the due time; without
 *       it a stalled server's queueing is hidden as in a closed loop ({@code docs/guide/run.md} compares
 *       the two schedules).</li>
 *   <li>No tool outlives its run: it may take its duration + 30 s before it is killed, an interrupt
 *       (Ctrl-C) kills it (SIGTERM, SIGKILL after 2 s), and, started through
 *       {@code setpriv --pdeathsig KILL} where util-linux's {@code setpriv} is on the PATH, it gets
 *       SIGKILL from the kernel when the harness dies, even by {@code kill -9}
 *       ({@code ExternalEnginesTest} checks it). Its output is kept (as {@code logs/run-ID-ENGINE.txt} in
 *       an experiment), so the run can be imported again.</li>
 *   <li>The tool's CPU is this JVM's reaped-children CPU ({@code cutime + cstime} of
 *       {@code /proc/self/stat}) across the run: {@code setpriv} and {@code taskset} exec in place, so the
 *       child is the tool. It goes to {@code load_cpu_s}, and {@code load_bound} is the built-in engine's
 *       90% rule over the tool's wall time and its CPUs. Hence one external run at a time per JVM.</li>
 *   <li>The version line of each tool ({@link Engine#version()}: {@code wrk -v}, {@code h2load --version},
 *       {@code oha --version}) goes to {@code experiment.json}: a tool update can change figures.</li>
 *   <li>Analyses keep engines apart: {@code data.RunRow.analysisVariant} appends {@code engine=E} to the
 *       variant of runs not made by the built-in engine, so a subject's wrk runs show as
 *       {@code go-nethttp [engine=wrk]} and are compared with the baseline's wrk runs only.
 *       {@code stats.Engines.compare} holds each engine against the built-in one on the same subject,
 *       variant and workload with the comparison's one rule, paired by round since every engine loads the
 *       same subject process in a round. {@code stats.Engines.rankings} compares the engines' orders of
 *       the subjects; orders of noisy means differ where neither engine can tell two subjects apart, so
 *       {@code clear_swaps} lists only the pairs put the other way round where one of the two engines calls
 *       the difference by {@code compare}'s rule. On 2026-12-03 five bundled subjects in 5 rounds gave a
 *       strict order that differed inside a top three ({@code same} no, Spearman 0.70) and no clear
 *       swap. {@code loadlab compare --engines}, {@code notebooks/engines.ipynb} and the report's Engines
 *       section (when an experiment has several engines) show them.</li>
 * </ul>
 */
package io.loadlab.engine;
