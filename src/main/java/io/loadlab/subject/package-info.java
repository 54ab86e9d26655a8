/**
 * The servers under test. A subject is {@code subjects/<name>/subject.yaml} plus its source:
 * {@link SubjectManifest} reads and checks the manifest (every field, and each placeholder, is described
 * there), {@link Subjects} is the catalog and {@link Subject} one subject with whether it can run here.
 * {@link SubjectLauncher} builds a subject once into Loadlab's cache ({@link BuildLock}) and starts it
 * with its placeholders filled in; {@link SubjectProcess} is one running server process, pinned, drained
 * to a log ({@link LogTail}), waited for and stopped by pid; {@link ServerSampler} reads its CPU, peak
 * RSS and the machine's noise over a measured window. {@link ServedProtocol} is the protocol a variant
 * serves, with a {@link ThrowawayCa} for the TLS ones; {@link ContractCheck} and {@link SubjectCheck}
 * hold a running subject to the subject contract (inside: {@code ContractClient},
 * {@code JdkContractClient}, {@code H2cContractClient}, {@code ReadinessTls}). {@link SubjectSources}
 * hashes what a subject was made of. {@link SubjectException} when a subject cannot be built or started,
 * is not ready, or dies.
 *
 * <p>It uses {@code host} (CPUs, {@code /proc}, listening sockets, the PATH, the cache), {@code load}
 * (the {@code LoadListener} through which the engine tells the sampler of the window) and {@code time},
 * and nothing that plans, runs load or stores data: {@code experiment}, {@code project}, {@code engine}
 * (a subject's log tail), {@code agent} and {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>{@link SubjectManifest#read} names the file, the field and what is expected. A subject whose
 *       {@code requires} names a command that is neither on the PATH nor in Loadlab's tools folder is
 *       unavailable, with the reason ("needs `go` on PATH"), not an error: {@link Subjects#load} reads
 *       them all and the plan skips that one, saying why.</li>
 *   <li>Builds live in the cache shared by every clone ({@code host.LoadlabCache}),
 *       {@code <cache>/subjects/<name>/<hash>/}, keyed by SHA-256 of the build command and the files
 *       its {@code sources} globs match. The command is hashed with this clone's placeholders
 *       ({@code {classpath}}, {@code {home}}) filled in, so that a build against one clone's jars is never
 *       reused by another, and unquoted, so that builds made before values were quoted stay valid. A
 *       project's revision subject ({@code api@v1.4.0}, whose manifest has a {@code commit}) is keyed by
 *       its commit and build command instead: a commit's files are fixed. A build runs under a lock on
 *       {@code <hash>.lock} ({@link BuildLock}: an {@code fcntl} lock for other processes, which the
 *       kernel releases when a process dies, and a {@code ReentrantLock} for this JVM's other threads,
 *       which the OS lock does not keep out) and writes its {@code .built} marker last, so two clones
 *       building at once wait for each other and a build that a killed process left half-done is done
 *       again ({@code BuildCacheTest} races two JVMs and two threads). A build that runs over 10 minutes is
 *       killed, and fails with its log's tail.</li>
 *   <li>A subject without a build step gets an empty {@code {build}} folder in the cache,
 *       {@code <cache>/subjects/<name>/unbuilt}, so a run from a user's own folder never writes into
 *       Loadlab's checkout. A subject name becomes a path only through {@link Subject#pathSegment}
 *       (characters outside {@code [A-Za-z0-9._@-]} as {@code _}): revision names carry {@code /} and
 *       {@code ~}.</li>
 *   <li>Every placeholder value is put in single quotes for the shell ({@code '} as {@code '\''}), so a
 *       path with spaces or {@code $}, or a value an agent's peer sent, is one literal word; a manifest
 *       therefore never quotes a placeholder itself. Build and version commands run with the tools folder
 *       after the PATH ({@code host.Executables}). The subject starts as {@code bash -c 'exec ...'} under
 *       {@code taskset -c}, so the process that is pinned, sampled and signalled is the server
 *       itself.</li>
 *   <li>No subject outlives the harness. {@link SubjectProcess} starts it under {@code setsid} (a session
 *       and process group of its own) with a watchdog: a {@code bash} that reads a pipe from this JVM and,
 *       when the JVM dies (even by kill -9) and the pipe closes, SIGKILLs the subject's group (and its
 *       pid, in case {@code setsid} had not run yet). The subject's command is held by a gate
 *       ({@code read} on its stdin) until the watchdog has its pid, so none runs unwatched.
 *       {@link SubjectProcess#close()} sends SIGTERM to every process of its tree and its process group
 *       (children that a subshell re-parented to init included), waits out a 5 s grace, then SIGKILLs
 *       until none is left (a zombie counts as ended), and waits until the root is reaped, or it would
 *       still count as alive right after. An interrupted caller (Ctrl-C) gets the same stop without the
 *       grace; {@link SubjectProcess#killAll()} is the second Ctrl-C's kill. Left as they are: a subject
 *       that daemonizes into a session of its own escapes its group (no bundled subject does), and
 *       without {@code setsid} on the PATH a subject shares the JVM's group, so only its tree is stopped
 *       and nothing watches for the JVM's death. {@code SubjectProcessTest} checks each case by pid.</li>
 *   <li>Readiness is {@code GET ready.path} answering 2xx from the subject itself, polled every 50 ms
 *       ({@link SubjectProcess#awaitReady}), and every way it fails says why, with the log's tail:
 *       <ul>
 *         <li>the process exits first, even with code 0: {@code exited with code 0 before it was
 *             ready};</li>
 *         <li>the port was chosen free by the OS, but another program can take it before the subject
 *             listens and answer the probe, so after a 2xx the port's listener must be one of the
 *             subject's processes, else {@code another process holds port P (pid, command)}; the
 *             other program is not the harness's to stop;</li>
 *         <li>the timeout names the ports the subject listens on instead ({@code does its start command
 *             pass {port}?});</li>
 *         <li>the probe's connect (1 s) and read (2 s) timeouts are cut to the time left, so the timeout
 *             holds, and a probe that the deadline cut short and that timed out does not replace one that
 *             got further: a busy machine once turned {@code answered 'HTTP/1.1 500'} into
 *             {@code no connection within 1ms}.</li>
 *       </ul>
 *       A TLS variant's probe speaks TLS without checking the certificate ({@code ReadinessTls}): it asks
 *       whether the subject answers; the engine and the contract check verify the certificate.</li>
 *   <li>{@link ServerSampler} reads, at the window's start and end, the subject's process tree, the
 *       machine's CPU on the CPUs in use (server and load CPUs; the whole machine when nothing is
 *       pinned) and this JVM's own CPU ({@code /proc/self/stat}, with its reaped children, which is where
 *       an external tool's CPU lands). {@code noise_cpu_s} = busy time ({@code host.MachineCpu}, which
 *       says why busy time is measured as it is) less the subject's tree less the JVM and its tool: the
 *       CPU that other programs took on those CPUs; {@code steal_s} is the hypervisor's. Measured:
 *       {@code NoiseRunTest} pins a busy loop to the server's CPU, then to the load's, reads the loop's
 *       own CPU over the window and requires {@code noise_cpu_s} within 25% of it (plus the quiet
 *       round's noise, this being a shared machine). {@code stats}' {@code noisy_machine} warning fires
 *       above a tenth of a CPU per second of window (or 2% steal). The peak RSS is reset at the
 *       window's start ({@code host.ProcessTreeStats.resetPeak}); where the reset is refused the peak
 *       is reported as 0 and the row leaves it empty, never a lifetime peak. The same sampler runs on a
 *       subject host, in an agent started with {@code --allow-subjects}.</li>
 *   <li>Protocol variants: a manifest's {@code protocol} variant ({@link ServedProtocol}: {@code h1},
 *       {@code h1-tls}, {@code h2-tls}, {@code h2c}; a subject without it serves {@code h1}) says what the
 *       subject serves, and its start command gets {@code {protocol}}, {@code {cert}} and {@code {key}}.
 *       {@link ThrowawayCa} makes a CA and server certificates with {@code openssl}, ECDSA P-256 (what
 *       certbot issues by default since 2.0, so the TLS cost measured is a modern deployment's, not
 *       RSA-2048 handshakes), naming {@code localhost} and {@code 127.0.0.1} (or a subject host's
 *       address): the runner makes one per experiment in {@code work/tls} when a planned run serves TLS
 *       and deletes it at the end; {@link SubjectCheck} makes one per checked TLS variant.
 *       {@link SubjectLauncher#withCertificate} passes the files on, and the launcher refuses to start
 *       a TLS variant without them.</li>
 *   <li>{@link Subject#label} leaves {@code protocol=h1} out of the variant written in the data, so
 *       runs over h1 keep the labels of experiments recorded before protocol variants existed and still
 *       pair with them in {@code compare}, {@code rerun} and reconcile; {@link Subject#fullLabel}, with
 *       it, is what {@code --variants} patterns match.</li>
 *   <li>The subject contract, the endpoints every bundled server implements for the workloads it lists:
 *       {@code GET /plaintext}: 200, {@code text/plain}, {@code Hello, World!};
 *       {@code GET /json}: 200, {@code application/json}, {@code {"message":"Hello, World!"}};
 *       {@code GET /bytes/{n}}: 200, {@code application/octet-stream}, exactly n deterministic bytes;
 *       {@code PUT /kv/{key}}: 201 when new, 204 when replaced; {@code GET /kv/{key}}: 200 with the
 *       stored body, 404 if absent; {@code GET /delay/{ms}}: 200 after ms milliseconds, without blocking
 *       other requests. In the {@code fsync} durability variant a PUT is answered only after the value's
 *       file is fdatasync'ed. Answers to pipelined requests leave in request order, also around a
 *       pending delay or fsync. {@link ContractCheck} checks a running subject endpoint by endpoint in
 *       its variant's protocol and fails an answer that came over another one ({@code JdkContractClient}:
 *       the JDK's {@code HttpClient} over HTTP/1.1, TLS and h2, the CA trusted and the host name checked;
 *       {@code H2cContractClient}: Netty's HTTP/2 codec with prior knowledge, which the JDK's client
 *       cannot start). {@code loadlab subjects --check RE} and {@code SubjectContractTest} run it for
 *       every subject and variant.</li>
 *   <li>{@link SubjectSources} hashes the manifest and every other file of the subject's folder, for
 *       {@code experiment.json}, so that {@code loadlab rerun} can say whose sources differ. Unlike the
 *       build key, the hashes depend on the files alone: the same folder gives the same hashes in any
 *       clone on any machine, and a change to a file the build does not list still shows.</li>
 * </ul>
 */
package io.loadlab.subject;
