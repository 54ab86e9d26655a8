/**
 * Load on several hosts. {@link Agent} is {@code loadlab agent}: one embedded Hazelcast member per load
 * host, running its share of each run on the built-in engine. {@link Coordinator} splits a run's load
 * over the agents of an {@link AgentSet} (each a {@link HostPort}) by weight, starts them at one instant
 * and merges their per-second histograms by interval index into a {@link RemoteResult} (the merged
 * {@code LoadResult} and one {@link AgentOutcome} per agent), shown by {@link RemoteSummary};
 * {@link AgentEngine} is the same as an {@code Engine} for the runner ({@code engine} column
 * {@code agents}). With {@code --allow-subjects} an agent also starts subjects on its host for
 * {@code run --subject-host} ({@link SubjectHost}, {@link RemoteSubject} on the runner's side).
 * {@link Secret} is the shared secret; {@link AgentException} names the agent at fault. Inside:
 * {@code Cluster} (how Hazelcast is set up), {@code RefusalLog}; the security layer {@code Handshake},
 * {@code AgentSessions}, {@code Envelope}, {@code Replies} and {@code OrderCheck}; the wire
 * {@code Message}, {@code Wire}, {@code SubjectWire}, {@code SpecCodec}; {@code AgentLink} (a
 * coordinator's link to one agent), {@code Setup}, {@code Split}, {@code ClockOffset}, {@code Collector},
 * {@code Merger}, {@code Outcomes}; on the agent {@code AgentRun}, {@code LoopCpu}, {@code SubjectService}
 * and {@code ScratchCertificate}.
 *
 * <p>It uses {@code engine} (the {@code Engine} interface it implements), {@code data} (the columns of
 * {@code agents.csv}), {@code subject} (launching and sampling a subject on the agent's host),
 * {@code host}, {@code load} (the engine each agent runs), {@code load.summary} (how a run is shown) and
 * {@code workload}, and nothing that plans or stores experiments: {@code experiment} and {@code cli} use
 * it, never the other way round. The runner sees none of the agents: {@code experiment.Generators.engines()}
 * is an {@link AgentEngine} when agents are set, and {@code RunSpec} and {@code EngineResult} are all it
 * exchanges with it.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>Hazelcast 5.7.0, one client per agent. Hazelcast is one jar with no transitive dependencies and
 *       no Netty (it has its own NIO networking), so the engine's Netty 4.2.18 is untouched; it binds
 *       exactly one address and port ({@code hazelcast.socket.bind.any=false}, an interface list of one,
 *       no port auto-increment, no multicast, no auto-detection, no phone-home: {@code Cluster}); and it
 *       checks a cluster name at every member join and client authentication. Vert.x 5.0.7's clustered
 *       event bus needs a cluster manager anyway ({@code vertx-hazelcast}, so Hazelcast inside it), adds
 *       a second listening port, its own Netty to converge with ours, and codecs; its request/reply
 *       addressing is a few lines on queues here. The agents know only their own address, so they cannot
 *       form one cluster: Hazelcast's TCP-IP join makes a starting member join one cluster it lists and
 *       merges separate clusters only through its split-brain handler, minutes later. Measured: two
 *       one-member clusters A and B, then a member C listing both: C joined B, A stayed alone for the
 *       20 s watched. So each agent is a one-member cluster, and the coordinator is a Hazelcast client of
 *       each (0.25 s to connect here), never listening anywhere, without reconnecting (a lost agent stays
 *       lost for the run). An agent serves one coordinator's run at a time; a second is refused ("busy
 *       with another coordinator's run").</li>
 *   <li>Security against a hostile peer on the load network starts with the secret ({@link Secret}): a
 *       file of at least {@link Secret#MIN_LENGTH} (16) characters that its group and others may neither
 *       read nor write (refused otherwise, as ssh does for keys: whoever reads it controls the agents),
 *       never sent. Gate 1: the cluster name both sides present is {@code loadlab-} and 24 hex digits of
 *       HMAC-SHA256(secret, a fixed label) ({@link Secret#clusterName()}), so Hazelcast itself refuses a
 *       member or client with another name. But Hazelcast sends that name in clear (TLS and stronger
 *       member authentication are in its Enterprise edition), so whoever sniffs it can connect, and the
 *       agent never logs it.</li>
 *   <li>Gate 2, so control rests on a handshake per session ({@code Handshake}, the agent's side in
 *       {@code AgentSessions}). The coordinator sends {@code hello} (session, its client UUID, a 32-byte
 *       nonce from {@code SecureRandom}); the agent answers {@code hello_agent} with a nonce of its own
 *       and the proof HMAC(secret, "agent" | session | nonce_c | nonce_a); the coordinator checks it in
 *       constant time, and an agent whose proof is wrong is named ("did not prove it holds the secret")
 *       and sent nothing else: no load, no {@code launch}, no {@code key_pem} ({@code AgentImpostorTest}).
 *       Only then does the coordinator send its own proof (label "coordinator"); a wrong one ends the
 *       session (one try, so it cannot be guessed at). Each MAC has a label of its own and its parts
 *       length-prefixed ({@code Secret.mac}), so a value made for one use is valid for no other, and both
 *       nonces make it good for one session only.</li>
 *   <li>After the handshake every order and answer is one item
 *       {@code {"type":"sealed","session","seq","box"}} ({@code Envelope}): the message's JSON encrypted
 *       with AES-256-GCM under the session key HMAC(secret, "session" | session | nonce_c | nonce_a), the
 *       12-byte nonce being the direction and a per-direction counter (no nonce repeats under one key),
 *       the session and direction its associated data. The receiver refuses in one line, and runs nothing
 *       of, an item that is not sealed, is sealed in a session nobody proved, fails to authenticate
 *       (altered, another key, the other direction), is replayed (its counter not above the last
 *       accepted), or carries an order of another session than the one it was sealed in
 *       ({@code AgentHostileTest}, {@code EnvelopeTest}). {@code Replies} seals and offers under one
 *       lock, so the several threads that answer keep the queue in counter order.</li>
 *   <li>{@code AgentSessions} keeps at most {@code MAX_SESSIONS} (64) sessions, so that a peer knowing
 *       only the cluster name cannot grow the agent's memory: a new {@code hello} evicts the oldest
 *       unproven one, or is refused when all are proven; a session is forgotten when its coordinator's
 *       client disconnects. What stays open to someone on the load network: seeing that agents and
 *       coordinators talk, when and how much; connecting with the sniffed name and disturbing the queues
 *       (taking replies, filling the inbox or the session table): a denial of service, not control.</li>
 *   <li>Refusals are visible: Hazelcast logs a refused client only at FINE and a refused member in its
 *       own words, so {@code RefusalLog} hooks those two JUL loggers and prints one line on the agent's
 *       log ({@code refused client 10.77.0.5:41234: its cluster name differs, so it does not hold this
 *       agent's secret (Hazelcast client authentication failed)}, or {@code refused member ...}). The
 *       agent binds {@code --listen} only (an IP address, or a name resolving to one), nothing on all
 *       interfaces.</li>
 *   <li>Orders and answers are JSON text, which Hazelcast writes with its own string serializer; but a
 *       queue takes any object, and Hazelcast Java-deserializes a {@code Serializable} one when it is
 *       taken, before Loadlab sees it. So both sides install {@code Cluster.serializationFilter()}: only
 *       {@code java.lang.String} and Hazelcast's own {@code com.hazelcast.} classes may be resolved, with
 *       Hazelcast's broader defaults (every {@code java*} class, arrays) off. An item of another class
 *       fails to be read on the taking side (the agent logs "refused an order that could not be read"
 *       and goes on; a coordinator loses that agent), so a deserialization gadget never runs.</li>
 *   <li>Every order is hostile until checked ({@code OrderCheck}); whatever one order does wrong is its
 *       refusal, logged and answered to its session's reply queue where it has one, and the agent goes on
 *       ({@code AgentHostileTest}). An item that is not text or not JSON, or an agent's answer instead of
 *       an order, is logged. The session must be a UUID in canonical form (it becomes part of scratch
 *       file names, each also checked to stay inside the scratch folder, {@code OrderCheck.under}); the
 *       reply queue must be the session's own ({@code loadlab.replies.SESSION}); the client a run or
 *       subject is tied to must be one connected to this agent now (the open edition's queue does not say
 *       who offered an item, so the UUID in the order is taken only when it is a connected one, whose loss
 *       then ends the run). A run's share is capped at 100,000 connections, max(16, 4 × the agent's CPUs)
 *       threads, an hour of window, of fixed warm-up and of request timeout, a minute of connect timeout,
 *       and a run limit of warm-up + window (an hour for a request count) + 15 s
 *       ({@code Setup.LIMIT_SLACK_MS}), each over-cap value refused naming the cap. A launch's variant
 *       names and values must be ones the subject's manifest on the agent declares, since they reach its
 *       start command.</li>
 *   <li>Starting a subject is running code, so an agent does it only when started with
 *       {@code --allow-subjects}; without it a {@code launch} is refused in one line ("started without
 *       --allow-subjects (starting a subject runs code from its checkout)"), and the runner fails the
 *       experiment with it, since every round would be refused alike. {@code SubjectService} builds the
 *       subject from the agent's own checkout with the same {@code SubjectLauncher} (builds and logs in its
 *       {@code target/agent-subjects/}), starts it unpinned, probes readiness at the listen host, and
 *       stops it on {@code halt} (SIGTERM to its process group, SIGKILL after 5 s). One subject at a time
 *       per agent: two would measure each other. No orphans: the agent stops the subject of a coordinator
 *       whose client disconnects (at once when the runner is killed, within the 6 s heartbeat when its
 *       host vanishes), cuts short a launch in flight, stops it when the agent stops, and the
 *       {@code SubjectProcess} watchdog kills it if the agent's JVM is killed.</li>
 *   <li>Remote subjects are measured where they run: around each window the engine's listener sends
 *       {@code sample start} and {@code sample end}, so {@code server_cpu_*}, the peak RSS, noise and steal
 *       are read on the subject's host by the same {@code ServerSampler}, over that whole machine (a round
 *       trip through the queue, about 1 ms on a LAN, separates the load's window edges from the
 *       sampler's); {@code sample check} before and after each run turns a dead subject into a failed row
 *       with its log's tail. With {@code --subject-host} nothing is pinned on the runner's host and
 *       {@code --server-cpus} is refused ({@code experiment.Placement}). Not done: the subject's version
 *       line ("not recorded (runs on subject host ...)"), and availability is judged on the runner's
 *       host.</li>
 *   <li>TLS variants on a subject host: the runner's throw-away CA issues the server certificate for the
 *       {@code --subject-host} host ({@code experiment.Servers.altNames}: an IP SAN for an address, a DNS
 *       SAN for a name), {@code launch} carries the certificate and key as PEM, and the agent writes them
 *       into {@code target/agent-subjects/tls-SESSION/} ({@code ScratchCertificate}: the folder 0700,
 *       {@code server.key} 0600 before a byte of the key is in it), probes readiness over TLS and deletes
 *       them when the subject stops (halt, a departed coordinator, a failed start, the agent's stop). The
 *       key crosses the link only sealed and only to an agent that proved it holds the secret; it is a
 *       throw-away key of one experiment, for a certificate only that experiment's engine trusts, and the
 *       CA's key never leaves the runner's host. The protocol version ({@link Agent#VERSION},
 *       {@code loadlab-agent-3}) is checked by a ping before any launch or load, another version refused
 *       naming both; a version 2 agent does not answer the handshake, so an agent too old to take a
 *       certificate never gets a TLS launch.</li>
 *   <li>Agents load over plain HTTP/1.1 only ({@link AgentEngine#cannotSpeak}): the share an agent receives
 *       ({@code SpecCodec}) carries no protocol, streams or TLS settings, so anything else would quietly
 *       run as plain HTTP/1.1; the plan skips such runs with the reason.</li>
 *   <li>Splitting ({@code Split}), as Hyperfoil's slices and k6's execution segments do: connections and a
 *       request count by largest remainder over the weights (each agent at least one connection, so
 *       {@code -c} must be at least the number of agents), a fixed rate in exact proportion. Weights
 *       default to each agent's CPUs ({@code availableProcessors}, so a {@code taskset}-pinned agent counts
 *       its CPUs), or {@code --agent-weights}. Each agent keeps the run's threads (at most its
 *       connections: {@code -t} is per agent) and a seed of its own ({@code seed·31 + i}), so agents do
 *       not send the same keys in step. A loopback target (the runner's subjects) is rewritten for each
 *       agent to this host's address on the connection to that agent.</li>
 *   <li>One start, windows by index ({@code Setup}, {@code Collector}). The coordinator picks an instant
 *       at least 0.5 s (and 4 round trips) ahead and tells each agent it on its own clock; from then on
 *       only interval indexes decide what belongs together, so a skewed clock moves no boundary. Each
 *       clock's offset is measured NTP-style over 7 probes ({@code ClockOffset}: the probe with the least
 *       round trip; offset = agent's time − the midpoint of send and receipt; error at most half that round
 *       trip, about 1 ms through the queues) and recorded ({@code clock_offset_us}, {@code clock_rtt_us});
 *       {@code start_lag_ms} records how much later an agent's first interval began (its engine's
 *       start-up: 2–120 ms measured, the most on an agent's first run in a fresh JVM).</li>
 *   <li>A fixed warm-up runs in each agent's engine, so every window opens at start + warm-up. A
 *       steady-state warm-up cannot be decided by each agent (their windows would open at different
 *       moments, and one agent's end would unload the server while another still measures): the agents
 *       run without one for the longest warm-up plus the window ({@code Split.Phases}), the coordinator
 *       applies {@code load.SteadyState}'s rule and the warm-up's end rules to the merged seconds (4 and 8
 *       intervals of 1 s here, not 0.5 s; steady with the server's compilers quiet, where its host's sampler
 *       reads them, the agents' own not known; a second without a good answer
 *       cuts it short), then tells every agent the index after which to stop. Those engines are stopped
 *       rather than ending by themselves, so status codes and bytes written are not known: null in
 *       {@code load --json}, empty in the row, never 0. A cold agent JVM falls behind a fixed-rate schedule
 *       in its first second and catches up after: a warm-up of 2–3 s keeps that out of the window.</li>
 *   <li>Merging ({@code Merger}): interval i of the run is interval i of every agent, histograms added
 *       bucket by bucket (every agent records 1 µs to 1 h at 3 digits, so the merge is exact: a test checks
 *       the merged percentiles against an offline merge of the agents' own files), counters summed, the
 *       start the earliest, the length the longest (so a late-starting agent does not stretch the second).
 *       Each interval carries the hypervisor's steal on the CPUs its agent may use ({@code /proc/stat});
 *       an agent's steal over the window is the sum of its window's, kept only when every one said it
 *       (each at most what 4,096 CPUs have in its second), and the run's is the agents' sum.
 *       The coordinator waits for each agent's interval i until {@code Collector.LATE_MS} (2 s) after its
 *       end; an agent that misses it is lost.</li>
 *   <li>A loss never shrinks the load silently. Status {@code ok} when every agent finished its share of
 *       the window; {@code partial} when one was lost or failed during it: the others are stopped at once
 *       and the merged figures hold only the complete intervals before the loss; {@code failed} when no
 *       window interval was measured (an agent unreachable, refused, or unable to reach the target, each
 *       named). Each agent checks at {@code prepare} that it opens a TCP connection to the target, so that
 *       nothing starts when one cannot. Lost means: its connection dropped, its heartbeat stopped for 6 s
 *       ({@code Cluster.HEARTBEAT_TIMEOUT_S}), its interval came 2 s late, or it was stopped on its host
 *       ({@code agent_stopped}). The other way, an agent stops loading when its coordinator's client
 *       disconnects ({@code coordinator_gone}) and, whatever happens, at its deadline (warm-up + window +
 *       15 s from the prepare). {@code load} exits 0 only for {@code ok}; in {@code run} a partial run's
 *       row is {@code failed} with the lost agent named. {@link AgentOutcome#loadBound()} applies the
 *       engine's 90% rule to each agent's own min(threads, CPUs), and {@link RemoteResult#loadBound()} is
 *       true when any agent was: one saturated agent beside idle ones limits the run, yet does not show
 *       in the pooled CPUs.</li>
 *   <li>What is kept: {@code --hlog} writes the merged intervals tagged {@code TAG} and each agent's own
 *       {@code TAG@HOST:PORT}; in an experiment {@code latency.hlog} holds the merged intervals only (its
 *       tags are run ids, which {@code Results.load} and the resume repair rely on) and {@code agents.csv}
 *       one row per agent ({@link AgentEngine} gives them as the result's parts); {@code experiment.json}
 *       stores the agents' addresses, weights and the secret file's path, never the secret.</li>
 *   <li>Scale, on paper ({@code bench/agents-scaling.sh 2 4 5}: simulated agents in one JVM, a quiet
 *       2-core VM, 5 repetitions of 2 s after one discarded): one interval message of a 50k-request second
 *       is 5.3 KB of JSON; parsing it, decoding the histogram and adding it to the merge takes 73 µs on one
 *       thread (13,600 histograms/s, n=5, CV 3.9%, 95% CI [13,000, 14,300]); through Hazelcast with four
 *       in-JVM members offering and four clients polling, 4,400 messages/s (n=5, CV 9.4%, 95% CI [3,900,
 *       4,900]). Each agent sends one histogram a second (two at a fixed rate); each coordinator client
 *       costs 16 threads (+ 1 reader per agent). So 10 agents (10–20 histograms/s, 0.1% of a core,
 *       ~170 threads) and 100 (100–200/s, 1–2%, ~1,700 threads) are fine; at 1,000 (1,000–2,000/s, 7–15%
 *       of a core, under the measured transport, ~17,000 threads) a client and a reader thread per agent
 *       saturate threads and connections first: that would need the agents in one cluster or a topic
 *       listener instead of a polling thread, and merging on several threads.</li>
 *   <li>One agent against two ({@code bench/agents-one-vs-two.sh 6 5s}, under the quiet lock, a 2-thread
 *       Netty server, 64 connections, 5 s windows, alternating): round 1 (cold JVMs) 65,600/s with one
 *       agent and 89,500/s with two; over rounds 2–6 one agent 69,370/s (n 5, CV 3.5%, 95% CI [66,330,
 *       72,410]) and two 89,930/s (n 5, CV 9.1%, [79,780, 100,080]), a per-round ratio of 1.10–1.46 (mean
 *       1.30), each of two agents about half (e.g. 47,640 + 47,210); no agent was load-bound (one agent's
 *       loop used 3.5 s of 5 s). This shows the split is even, the merge adds up, and clocks on one host
 *       agree within ±0.6 ms (the probe's error; the true offset is 0). It cannot show scale-out: the
 *       namespaces share the machine's 2 cores, so the gain with two agents is a second event loop, not a
 *       second machine. On separate hosts one agent is bounded by its host's CPUs ({@code load_bound}),
 *       two by the server.</li>
 *   <li>Tests: {@code AgentsAcrossHostsTest} and {@code RemoteSubjectsAcrossHostsTest} (root only, hosts
 *       made of network namespaces by {@code Netns}; in CI a failure to make them is a failure, elsewhere a
 *       skip with the reason) run separate JVMs for the subject, two agents and the coordinator. Figures of
 *       one run on 2 shared cores: {@code -n 20000} gave 10,000 + 10,000 = the server's count;
 *       {@code -R 2000} gave 1,000.0/s on each agent with 0 of 8,000 missed (another run missed 1, so the
 *       test allows 2%); clock offsets −221 … +288 µs with probe round trips of 1.4–3.0 ms.
 *       {@code AgentsInProcessTest} runs two agents in the test JVM on 127.0.0.1 (any user);
 *       {@code AgentHostileTest}, {@code AgentImpostorTest}, {@code EnvelopeTest}, {@code AgentSessionsTest}
 *       and {@code OrderCheckTest} test the security layer; {@code AgentPartsTest} splitting, the wire
 *       form, the merge against an oracle, clock offsets, secrets and addresses.</li>
 * </ul>
 */
package io.loadlab.agent;
