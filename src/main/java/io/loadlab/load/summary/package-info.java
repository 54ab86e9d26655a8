/**
 * How one load run is shown: {@link io.loadlab.load.summary.TextSummary} is the terminal summary
 * ({@code header} before the run, {@code format} after it: latency distribution, throughput, status
 * codes and errors, CPU, warnings), rounded by {@code io.loadlab.format}, and
 * {@link io.loadlab.load.summary.JsonSummary} is {@code loadlab load --json}, at full precision (its
 * fields are documented in {@code docs/guide/load.md}, "JSON output"). {@code ProtocolText} and
 * {@code ProtocolJson} add the TLS and HTTP/2 lines and fields.
 *
 * <p>It uses {@code load} (the {@code LoadResult} it shows) and {@code format}, and nothing that runs
 * experiments or stores data: {@code cli} ({@code loadlab load}) and {@code agent} (a run merged over
 * several hosts) use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>The engine returns a {@link io.loadlab.load.LoadResult} and prints nothing; how a run is shown
 *       is apart, so that a run on this machine and one merged from agents are shown by the same
 *       code.</li>
 *   <li>The text is laid out for a wrk or oha user (latency percentiles 50 to 99.99, {@code Requests/sec},
 *       {@code Transfer/sec}); at a fixed rate it says that latency counts from the due time
 *       (coordinated omission corrected) and shows the service time beside it. A run that needs a
 *       second look ({@code load_bound}, {@code not_steady}, {@code rate_not_reached}, stopped early)
 *       ends with a paragraph saying what to change.</li>
 *   <li>The JSON keeps every digit, and a figure that was not measured is {@code null}, never 0 (an
 *       empty histogram's percentiles, the service time of a closed loop, TLS and HTTP/2 fields of a run
 *       without them): a 0 would read as a measurement.</li>
 *   <li>{@link io.loadlab.load.summary.JsonSummary} keeps its own Jackson mapper rather than
 *       {@code data.Json}'s: {@code load --json} is another format than {@code experiment.json}, and
 *       this package, like {@code load}, must not depend on {@code data}
 *       ({@code PackageDependenciesTest}).</li>
 * </ul>
 */
package io.loadlab.load.summary;
