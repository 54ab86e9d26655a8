package io.loadlab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The summary sentences of a comparison, on rows made by hand. */
class SentencesTest {

    private static ComparisonRow row(String subject, String metric, int n, double ratio, double low, double high,
                                     Verdict verdict, Design design) {
        return new ComparisonRow(subject, "plaintext", metric, n, 100, 1, 99, 101, ratio, low, high, 0.01, 0.01,
                verdict, "", "go-nethttp", "", design, 0.01, 0.01, Adjustment.HOLM, 0.01, Double.NaN, Double.NaN);
    }

    private static final ComparisonRow BASE = new ComparisonRow("go-nethttp", "plaintext", "rps", 4, 100, 1, 99, 101,
            1, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Verdict.BASELINE, "", "go-nethttp", "baseline",
            Design.NONE, Double.NaN, Double.NaN, Adjustment.HOLM, Double.NaN, Double.NaN, Double.NaN);

    @Test
    void aSlowerSubjectIsSaidWithTheBaselineFirstAndTheInverseFactor() {
        ComparisonRow r = row("node-http", "rps", 5, 0.5, 0.4, 0.625, Verdict.SLOWER, Design.PAIRED);
        assertEquals("go-nethttp ran 2.00× [1.60, 2.50] faster than node-http on plaintext (paired, n = 5)",
                Sentences.of(r, Optional.of(BASE)));
    }

    @Test
    void lowerLatencyIsFasterAndNamesTheMetric() {
        ComparisonRow r = row("java-netty", "lat_p99_us", 5, 0.8, 0.75, 0.85, Verdict.FASTER, Design.WELCH);
        assertEquals("java-netty ran 1.25× [1.18, 1.33] faster than go-nethttp on plaintext by lat_p99_us"
                + " (welch, n = 5 and 4)", Sentences.of(r, Optional.of(BASE)));
    }

    @Test
    void noCalledDifferenceSaysTheVerdictWithTheRatio() {
        ComparisonRow r = row("java-netty", "rps", 4, 1.004, 0.99, 1.02, Verdict.EQUIVALENT, Design.PAIRED);
        assertEquals("java-netty and go-nethttp on plaintext: equivalent, ratio 1.00 [0.990, 1.02]"
                + " (paired, n = 4)", Sentences.of(r, Optional.of(BASE)));
        ComparisonRow undecided = new ComparisonRow("java-netty", "plaintext", "rps", 3, 100, 1, 99, 101, 1.007, 0.99,
                1.02, 0.2, 0.2, Verdict.UNDECIDED, "", "go-nethttp", "", Design.PAIRED, 0.2, 0.2, Adjustment.HOLM, 0.3,
                0.128, 26);
        assertEquals("java-netty and go-nethttp on plaintext: undecided (mdd 12.8%, ~26 rounds), ratio 1.01 [0.990, 1.02]"
                + " (paired, n = 3)", Sentences.of(undecided, Optional.of(BASE)));
        ComparisonRow few = row("java-netty", "rps", 2, 1.1, Double.NaN, Double.NaN, Verdict.TOO_FEW_ROUNDS, Design.NONE);
        assertEquals("java-netty and go-nethttp on plaintext: too few rounds, ratio 1.10 (n = 2 and 4)",
                Sentences.of(few, Optional.of(BASE)));
    }

    @Test
    void everyGroupButTheBaselineGetsOneSentenceInReadingOrder() {
        ComparisonRow b = row("node-http", "rps", 4, 0.5, 0.4, 0.625, Verdict.SLOWER, Design.PAIRED);
        ComparisonRow a = row("java-netty", "rps", 4, 2, 1.9, 2.1, Verdict.FASTER, Design.PAIRED);
        List<String> lines = Sentences.of(List.of(b, BASE, a));
        assertEquals(2, lines.size());
        assertEquals("java-netty ran 2.00× [1.90, 2.10] faster than go-nethttp on plaintext (paired, n = 4)", lines.get(0));
    }
}
