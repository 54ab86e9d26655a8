package io.loadlab.bench;

import io.loadlab.load.ResponseParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark, not a test: nanoseconds per answer of {@link ResponseParser} on a direct buffer of 16
 * pipelined answers, as the engine feeds it. Three shapes: nginx's "Hello, World!" answer
 * repeated (the header section equal each time), the same with a header whose value changes in
 * every answer (nothing can be reused), and a chunked answer. Each shape runs in its own warm-up,
 * then in {@code ROUNDS} timed rounds; it prints the mean, the CV and a 95% t interval over them.
 * Run with bench/parser.sh. One thread; pin it ({@code taskset}) for steady figures.
 */
public final class ParserBenchmark {

    private static final int PIPELINE = 16;
    private static final int ROUNDS = 10;
    /** Answers per timed round: about a tenth of a second each. */
    private static final int ANSWERS_PER_ROUND = 8_000_000;
    private static final String NGINX = "HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Thu, 03 Dec 2026 07:53:08 GMT\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 13\r\nConnection: keep-alive\r\n\r\nHello, World!";
    /** Student's t at 97.5% for 9 degrees of freedom (ROUNDS - 1). */
    private static final double T_9 = 2.262;

    private record Shape(String name, List<String> answers) {}

    private ParserBenchmark() {
    }

    public static void main(String[] args) {
        List<String> changing = new ArrayList<>();
        for (int i = 0; i < PIPELINE; i++) {
            changing.add(NGINX.replace("Server: nginx\r\n", String.format(Locale.ROOT, "X-Request-Id: %08d\r\n", i)));
        }
        String chunked = "HTTP/1.1 200 OK\r\nServer: s\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "d\r\nHello, World!\r\n0\r\n\r\n";
        List<Shape> shapes = List.of(
                new Shape("nginx plaintext, same header section", Collections.nCopies(PIPELINE, NGINX)),
                new Shape("a header that changes in every answer", changing),
                new Shape("chunked, same header section", Collections.nCopies(PIPELINE, chunked)));
        System.out.printf(Locale.ROOT, "ResponseParser, %d pipelined answers per read, %d rounds of %,d answers%n",
                PIPELINE, ROUNDS, ANSWERS_PER_ROUND);
        for (Shape s : shapes) {
            double[] ns = measure(String.join("", s.answers()));
            System.out.printf(Locale.ROOT, "  %-40s %s%n", s.name(), summary(ns));
        }
    }

    /** ns per answer in each timed round, after an untimed warm-up of as many rounds. */
    private static double[] measure(String pipelined) {
        byte[] bytes = pipelined.getBytes(StandardCharsets.US_ASCII);
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length);
        buf.writeBytes(bytes);
        ResponseParser parser = new ResponseParser(false);
        long[] sink = {0};
        ResponseParser.Listener listener = (status, body, close, matched) -> {
            sink[0] += status + body;
            return true;
        };
        int reads = ANSWERS_PER_ROUND / PIPELINE;
        double[] ns = new double[ROUNDS];
        try {
            for (int round = -ROUNDS; round < ROUNDS; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < reads; i++) {
                    buf.readerIndex(0);
                    String error = parser.feed(buf, listener);
                    if (error != null) {
                        throw new IllegalStateException(error);
                    }
                }
                long t1 = System.nanoTime();
                if (round >= 0) {
                    ns[round] = (t1 - t0) / (double) (reads * PIPELINE);
                }
            }
        } finally {
            buf.release();
        }
        if (sink[0] != (long) 2 * ROUNDS * reads * PIPELINE * (200 + 13)) {
            throw new IllegalStateException("the parser reported other answers than it was given: " + sink[0]);
        }
        return ns;
    }

    private static String summary(double[] ns) {
        double mean = Arrays.stream(ns).average().orElseThrow();
        double var = Arrays.stream(ns).map(v -> (v - mean) * (v - mean)).sum() / (ns.length - 1);
        double sd = Math.sqrt(var);
        double half = T_9 * sd / Math.sqrt(ns.length);
        return String.format(Locale.ROOT, "%6.1f ns per answer (n=%d, CV %.1f%%, 95%% CI %.1f..%.1f)",
                mean, ns.length, 100 * sd / mean, mean - half, mean + half);
    }
}
