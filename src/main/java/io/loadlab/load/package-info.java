/**
 * The built-in HTTP/1.1 and HTTP/2 load engine, on Netty 4.2. A {@link io.loadlab.load.LoadSpec}
 * (built with its builder or {@link io.loadlab.load.LoadSpec#toBuilder()};
 * {@link io.loadlab.load.LoadSpec#DEFAULT_CONNECTIONS}, the one default of 64 connections) says what to
 * send ({@link io.loadlab.load.RequestTemplate} to a {@link io.loadlab.load.Target}, checked against an
 * {@link io.loadlab.load.Expectation}), how ({@link io.loadlab.load.LoadModel}: closed loop or fixed rate;
 * {@link io.loadlab.load.Protocol}, {@link io.loadlab.load.TlsOptions}, {@link io.loadlab.load.Transport})
 * and for how long, after what warm-up ({@link io.loadlab.load.Warmup}: {@code Fixed}, or {@code Steady}
 * by {@link io.loadlab.load.SteadyState}'s rule). {@link io.loadlab.load.NettyLoad#run} runs it, telling a
 * {@link io.loadlab.load.LoadListener} of each second's {@link io.loadlab.load.IntervalSample}, and returns
 * a {@link io.loadlab.load.LoadResult} (counts, {@link io.loadlab.load.ErrorCounts}, HdrHistograms of
 * latency, {@link io.loadlab.load.Warmed}, CPU); {@link io.loadlab.load.Hlog} writes its intervals as an
 * HdrHistogram log. A spec that cannot run, or a run that cannot start, is a
 * {@link io.loadlab.load.LoadException}. Inside: {@code RunPhases} (the phases of one run, on the calling
 * thread), one {@code Worker} per event loop with its connections ({@code Http1Connection} with
 * {@link io.loadlab.load.ResponseParser}, {@code ResponseHead}, {@code HeaderBytes} and {@code RepeatedHeaders};
 * {@code H2Connection}), and a fixed rate's {@code Pacer}.
 *
 * <p>It uses {@code bytes} (the parser's byte search), {@code format} (a spec's one-line text) and
 * {@code time} (durations), and nothing that starts servers, runs experiments or stores data:
 * {@code load.summary}, {@code subject}, {@code data}, {@code importer}, {@code engine}, {@code agent},
 * {@code project}, {@code experiment}, {@code kernel} and {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li><b>Threads.</b> Connections are spread round robin over T event loops, one {@code Worker} each.
 *       Everything a connection does runs on its loop, so counters are plain {@code long}s and the
 *       interval's histograms plain {@code Histogram}s. The calling thread never touches them: once a
 *       second it submits a snapshot task to every loop, which swaps the loop's histograms for empty
 *       ones and copies its counters at the same instant. So an interval's histogram count always
 *       equals its answers plus its missed requests (a test checks it), and the intervals sum to the
 *       run. Event-loop threads live only during {@code run}; none is left behind.</li>
 *   <li><b>One write and one flush per read.</b> The requests that one read's answers make room for
 *       are encoded into one pooled buffer ({@code RequestEncoder}; a template without substitutions
 *       is encoded once and copied) and flushed once the read is complete, with one shared write
 *       promise per channel. Measured with {@code bench/engine-vs-wrk.sh -r 5 -d 10} (nginx, one worker,
 *       on core 0; each tool on core 1; {@code -t1 -c64}; n = 5 rounds; {@code docs/benchmarks.md}):
 *       0.552 of wrk's syscalls per answer, 1.153× its requests/s [1.12, 1.19] and 1.097× its answers
 *       per whole-process CPU-s [1.06, 1.13]. Over HTTP/1.1 without TLS the loop allocates nothing per
 *       request ({@code AllocationTest}: under 2 bytes per answer).</li>
 *   <li><b>Closed loop.</b> Each connection keeps {@code pipeline} requests in flight; an answer
 *       triggers the next. With a depth N above 1 a connection tops up to N only once at least N/2
 *       are answered ({@code Http1Connection.fillPipeline}), so each write carries at least N/2
 *       requests. Topping up after every answer made writes of one or two requests (the server
 *       answers in the batches it reads), and a profile put about 85% of the loop thread's CPU in the
 *       kernel's TCP path for those small segments. Against the pinned nginx ({@code -t1 -c64
 *       --pipeline 16 -d10s}, n = 4 alternating pairs): requests per loop CPU-s 161,613 to 207,431,
 *       ratio 1.285 [1.089, 1.518]. Topping up at the full depth, as wrk's Lua batch does, made no
 *       difference there that the VM's noise let through, and was not kept.</li>
 *   <li><b>Fixed rate.</b> Each slot (an HTTP/1.1 connection, an HTTP/2 stream slot) keeps its own
 *       schedule with one request in flight. A request sent late, because the previous answer was,
 *       still has its latency measured from its <em>due</em> time (coordinated omission corrected, as
 *       wrk2 does), and its service time (from the actual send) goes into a second histogram;
 *       {@code recordValueWithExpectedInterval} is never used. When a duration-bounded window ends,
 *       the requests that fell due but were never sent are recorded with the wait they had reached
 *       (a lower bound of their latency), so an overloaded server's backlog shows in the tail instead
 *       of vanishing; {@code missed} says how many.</li>
 *   <li><b>Pacing.</b> Each event loop's {@code Pacer} sends the fixed-rate requests when they fall
 *       due, without a Netty timer task per request, and runs the loop's timeout check too, so that a
 *       fixed-rate loop has no Netty timer at all; that class documents how it wakes, why, and what it
 *       reports.</li>
 *   <li><b>Warm-up.</b> Load runs from the start; at the warm-up's end every loop resets its
 *       recorders and counters, and requests in flight then count in the window. At a fixed rate each
 *       schedule also skips the requests that fell due in the warm-up and were never sent (the engine or
 *       the server was behind): they are the warm-up's, and sent in the window they lifted its rate above
 *       the target and put the warm-up's waits into its latency; {@code pacing.warmup_unsent} counts
 *       them. When it ends is
 *       {@code WarmupEnd}'s decision, made every {@link io.loadlab.load.SteadyState#INTERVAL_MS} ms from
 *       each loop's answers, read with the window's own per-second snapshot (its sample thrown away) so
 *       that the snapshot's code is compiled before the window, not at its first ticks: its fixed
 *       length, steady with the compilers quiet (and at a fixed rate not above the target), its
 *       maximum, or 1 s without a good answer (those classes give the rules and their measurements).
 *       Without a warm-up the
 *       listener's work and the clock and CPU readings come <em>before</em> the first connection, so
 *       the window is the whole run: a slow {@code /proc} scan once inflated requests/s by counting
 *       requests outside the window.</li>
 *   <li><b>Request count.</b> {@code -n N} hands out N permits from one {@code AtomicLong}; the run
 *       ends when N requests have been answered or failed. It cannot be combined with a warm-up,
 *       which would use up the count. If nothing ends for a request timeout plus a connect timeout,
 *       the run stops and says so ({@code stoppedEarly}).</li>
 *   <li><b>Errors</b> are counted per request, never thrown on the event loop: {@code connect} (per
 *       failed attempt, retried after 10 ms; a reset before the loop saw the handshake complete
 *       included), {@code read} (the connection closed or reset with requests outstanding, including
 *       those pipelined behind a {@code Connection: close} or an invalid answer), {@code write} (only
 *       the requests whose own write failed), {@code timeout} (a periodic check per loop closes a
 *       connection whose oldest request is older than the timeout; every request on it counts),
 *       {@code status} (a status the expectation does not accept, by default 400 and above; also
 *       counted as requests), {@code protocol} (an answer the parser rejected, or of the wrong body
 *       length), {@code body} (no {@code bodyContains} text, found by {@code BodyMatcher}, a
 *       Knuth-Morris-Pratt automaton whose state per answer is one int carried across reads, chunks
 *       and DATA frames) and {@code tls} (a failed handshake). After any failure the connection closes
 *       and reconnects while the run goes on.</li>
 *   <li><b>A connection per request.</b> A request that says {@code Connection: close}
 *       ({@link io.loadlab.load.RequestTemplate#closesConnection()}; {@code loadlab load --no-keepalive})
 *       makes the client close after each answer and reconnect, so a server that ignores the header
 *       still gets a new connection per request. {@code LoadSpec} refuses it with a pipeline and with
 *       HTTP/2. Latency counts from the write, once connected.</li>
 *   <li><b>Parser.</b> {@link io.loadlab.load.ResponseParser} is a byte state machine that allocates
 *       nothing per answer: status line, {@code Content-Length}, chunked (extensions, trailers),
 *       {@code Connection: close}, HTTP/1.0, 1xx, {@code HEAD}/204/304 without body, bodies until
 *       close. Lines are limited to 16 KiB and header sections to 64 KiB; bodies are counted, never
 *       kept. It copies up to 4 KiB of a read at once and parses the lines in place, finding each LF
 *       eight bytes at a time ({@link io.loadlab.bytes.Bytes#indexOf}). {@code RepeatedHeaders} keeps
 *       the last header section parsed whole (up to 1 KiB) with its parse: a section starting with the
 *       same bytes is skipped with one {@code Arrays.equals}, since servers repeat theirs; a section
 *       that differs only in its {@code Date} value (same length, no line feed: once a second) is
 *       skipped too, and its value remembered. All the answers of one read take the read's
 *       {@code nanoTime} as their end. A profile of {@code -t1 -c64 --pipeline 16} had put 26% of the
 *       loop's samples in the parser; {@code bench/parser.sh} (16 pipelined answers a read, one pinned
 *       core, n = 10 rounds), ns per answer before and after: nginx's answer repeated 173 and 12,
 *       a header that changes in every answer 163 and 145, chunked 138 and 49. Against
 *       {@code bench/batch-server.c} (3 pairs) requests per loop CPU-s rose 1.55× (1.43 to 1.72); there,
 *       where the generator is the limit, the engine does 1.499× wrk's answers per whole-process CPU-s
 *       [1.38, 1.62] (n = 5 rounds).</li>
 *   <li><b>CPU and histograms.</b> {@code load_cpu_s} is the event-loop threads' CPU time
 *       ({@code ThreadMXBean}) over the window, {@code process_cpu_s} the whole JVM's; a run is
 *       {@code load_bound} when the loops used at least 90% of min(threads, CPUs)
 *       ({@link io.loadlab.load.LoadResult#LOAD_BOUND_SHARE}): it may measure Loadlab, not the server.
 *       Histograms hold µs from 1 µs to 1 hour at 3 significant digits; {@link io.loadlab.load.Hlog}
 *       writes them tagged, in HdrHistogram's log format, a fixed rate's service times following with
 *       the tag {@code TAG-service}.</li>
 *   <li><b>Transport.</b> epoll by default (NIO where its native library does not load). With
 *       {@code --transport io_uring} (Netty 4.2.18) a reset that closely follows data is sometimes never
 *       reported to the channel, so some requests end as {@code timeout}s instead of {@code read} errors;
 *       epoll and NIO report every reset. Nor is io_uring faster: {@code bench/uring-vs-epoll.sh 4}
 *       ({@code -t1 -c64 -d5s} against nginx on the other core, 4 alternating pairs) gave io_uring/epoll
 *       1.026 in requests/s [0.93, 1.14] and 1.014 in requests per engine CPU-s [0.92, 1.12].</li>
 *   <li><b>Hostile servers</b> ({@code HostileServersTest}, 2 s runs of 32 connections on two loops):
 *       each misbehaviour lands in one error category and nowhere else (a server that never answers:
 *       {@code timeout}; a garbage status line or 1 MiB of headers: {@code protocol}, reading stops past
 *       64 KiB; a body cut short: {@code read}; a byte at a time: no error), each run ends within its
 *       duration plus the timeout, and no {@code loadlab-load} thread or socket is left. A listening
 *       socket cannot refuse chosen connections, so a reset at accept shows as {@code connect},
 *       {@code write} or {@code read} by when it arrives: one failure per reset. Memory: 256
 *       connections for 10 s against an endless chunked body (2 to 7.5 GiB read) add 9 to 13 MiB to the
 *       live heap and under 2 MiB to Netty's direct memory; the test bounds both at 64 MiB.</li>
 *   <li><b>Memory per connection.</b> What a connection keeps is multiplied by 10,000 connections, so the
 *       HTTP/1.1 parsers of a loop share one 4 KiB window (scratch within one read) and grow their
 *       split-line buffer and remembered header section only to what they hold. Each had its own
 *       window and a full 16 KiB line buffer: 21 KB a connection, and {@code loadlab load -c10000}
 *       against nginx peaked at 390-402 MB of RSS (wrk: 50 MB); 152-159 MB after
 *       ({@code bench/connections-memory.sh}).</li>
 *   <li>Java 17 has no pattern {@code switch} without preview, so the sealed
 *       {@link io.loadlab.load.LoadModel} variants answer for themselves ({@code describe()}) and the
 *       engine asks {@code spec.isFixedRate()} and {@code spec.pipeline()}.</li>
 * </ul>
 *
 * <p>TLS and HTTP/2:
 * <ul>
 *   <li>They are options of the one engine ({@code LoadSpec.protocol}, {@code streams}, {@code tls}),
 *       not a second engine: the same loops, counters, histograms, warm-up and results.
 *       {@code TlsClient} builds one client {@code SslContext} per run (BoringSSL through
 *       netty-tcnative where its native library loads, else the JDK's provider): one session cache, so
 *       later connections resume earlier sessions. {@code CertificateCheck} wraps the JDK's PKIX trust
 *       manager and rewrites its refusals (expired, another host, unknown issuer) as one line with what
 *       to do;
 *       {@code ProtocolPreflight} opens one connection in the run's protocol first, so a bad
 *       certificate or a server without TLS, h2 in ALPN or h2c ends the run at once (exit code 1)
 *       instead of giving a run of {@code tls} errors.</li>
 *   <li>{@code TlsGate} sits between the {@code SslHandler} and the HTTP handler until the handshake is
 *       done: it holds {@code channelActive} back, so no request's latency includes a handshake; it
 *       times the handshake, sees whether the session resumed, and counts a failed one as {@code tls}.</li>
 *   <li>{@code H2Connection} is one HTTP/2 connection with {@code streams} request slots in plain arrays
 *       ({@code H2Slots}) on Netty's {@code Http2ConnectionHandler} with a frame listener
 *       ({@code H2Frames}): no frame objects, no child channel per stream. {@code H2Frames.newCodec} gives
 *       it a uniform stream byte distributor: Netty's weighted-fair priority tree cost 6% of the loop's
 *       CPU. At a fixed rate each slot keeps its own schedule ({@code H2Schedules}), so coordinated
 *       omission is corrected per stream. RST_STREAM, GOAWAY and flow-control stalls are counted.</li>
 *   <li>Answers' header blocks go through the engine's own HPACK decoder ({@code H2StatusDecoder},
 *       RFC 7541, with {@code H2StatusTable}, {@code HpackStatic} and {@code HpackHuffman}): it keeps the
 *       dynamic table in step with the server's encoder but keeps only {@code :status} and
 *       {@code content-length}; other fields are parsed and sized, never made into strings. Netty's full
 *       decoder had taken a third of the loop's Java samples over h2-tls against nginx, whose answers add
 *       their {@code server}, {@code date} and other fields to the table each time. Requests per in-window
 *       CPU-s against h2load's ({@code bench/protocols-vs-tools.sh}, h2-tls) went from 1.044 and 1.039
 *       (two passes of 2 rounds) to 1.09 [1.00, 1.17] (7 rounds). It also keeps the decoded length of
 *       each value under a static-table name with its coded bytes, so a repeated {@code server} or
 *       {@code content-type} is not Huffman-decoded again: the decoder then fell from 17% to 11% of the
 *       loop's Java samples. A malformed
 *       block is always an {@code Http2Exception}, never another exception; {@code H2StatusDecoderFuzzTest}
 *       fuzzes it.</li>
 *   <li>Per request the event loop allocates about 930 B over h2c against a Netty server, 1.3 KB over
 *       h2-tls against nginx (stream state, promises, the content-length check, frame slices, TLS
 *       records) and 456 B over h1-tls (in the {@code SslHandler} and BoringSSL's engine);
 *       {@code ProtocolAllocationTest} bounds them. {@code bench/protocols-vs-tools.sh} (nginx on core
 *       0, each tool on core 1, BoringSSL, TLS 1.3, n = 3 rounds, 2026-12-01) measured requests per
 *       in-window CPU-s of 1.110 [1.089, 1.130] of wrk's over h1-tls, and 1.011 [0.824, 1.197] (h2-tls)
 *       and 1.052 [0.941, 1.163] (h2c) of h2load's with 10 streams.</li>
 * </ul>
 */
package io.loadlab.load;
