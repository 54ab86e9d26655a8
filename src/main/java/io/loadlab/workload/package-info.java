/**
 * The named request templates with their expectations: {@link Workload} (method, path, headers, a body
 * that is a {@link Workload.Filler} of a size or {@link Workload.Literal} bytes, the statuses, body length
 * and {@code body-contains} text of a correct answer, and a {@link Workload.Preload} of keys to write
 * before the window), and Loadlab's own catalogue, {@link Workload#builtin()}: {@code plaintext},
 * {@code json}, {@code bytes-64k}, {@code bytes-1m}, {@code put-1k} (1 KiB bodies over 10,000 random
 * keys), {@code get-kv} (1,000 keys of 1 KiB written before the window) and {@code delay-10ms}. A
 * project's workloads ({@code loadlab.yaml}, {@code docs/guide/project-file.md}) are made into the same
 * type by {@code project}.
 *
 * <p>It uses nothing of Loadlab's: {@code project}, {@code experiment}, {@code agent}, {@code kernel} and
 * {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>Each workload carries what a correct answer looks like, and the engine checks it on every
 *       answer ({@code load.Expectation}): a wrong status is an {@code errors_status} error, the right
 *       status with a wrong body length (where the length is fixed) an {@code errors_protocol} error,
 *       an answer without the {@code body-contains} text an {@code errors_body} error (the column is
 *       empty where no text was expected). Requests/s of wrong answers is not a throughput.</li>
 *   <li>{@code body-contains} is matched in every answer's body as the bytes stream past
 *       ({@code load.BodyMatcher}); no body is kept, so checking costs no memory per answer.</li>
 *   <li>A {@link Workload.Literal} body is sent as given, byte for byte, over HTTP/1.1 and HTTP/2 alike;
 *       a {@link Workload.Filler} is printable bytes made by the engine.</li>
 *   <li>Only a workload of the built-in catalogue's kind ({@link Workload#plain()}: no extra headers, a
 *       filler body, no {@code body-contains}) can be sent by every engine. External engines and agents
 *       send their own headers and cannot check bodies ({@code Engine.sendsWholeRequests()} is the
 *       built-in engine's alone), so the plan skips their runs of other workloads, with the reason,
 *       rather than measure a different request.</li>
 *   <li>A read workload's keys exist before its window: {@code get-kv}'s {@link Workload.Preload} is a
 *       {@code PUT /kv/g{seq}} request-count run of 1,000 keys before the window, not measured
 *       ({@code experiment}'s {@code Preload}), so every read finds a value of the expected 1 KiB.</li>
 *   <li>A project's expectations are also checked once per subject before the first round (one
 *       request of each workload, {@code experiment}'s {@code Preflight}), so that a wrong server or
 *       a misspelt expectation stops the experiment in one line before anything is measured.</li>
 * </ul>
 */
package io.loadlab.workload;
