package io.loadlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadlab.load.Warmup;
import io.loadlab.subject.SubjectManifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A manifest's warm-up bounds widen the experiment's, counted from the subject process's start: a
 * later workload of a process already that old waits only for what is left of them.
 */
class WarmupBoundsTest {

    private static final ExperimentSpec STEADY = ExperimentSpec.builder().name("t").rounds(3)
            .warmup(new Warmup.Steady(Duration.ofSeconds(2), Duration.ofSeconds(15))).build();

    /** java-httpserver's bounds: 8 s at least (its plateau before C2), 30 s at most. */
    private static SubjectManifest jit(Optional<SubjectManifest.WarmupBounds> bounds) {
        return new SubjectManifest("jit", "d", "Java", Optional.empty(), List.of(), Optional.empty(), "true",
                new SubjectManifest.Readiness("/plaintext", Duration.ofSeconds(1)), List.of("plaintext"), Map.of(),
                Path.of("/tmp", "jit"), bounds);
    }

    private static final SubjectManifest JIT = jit(Optional.of(
            new SubjectManifest.WarmupBounds(Duration.ofSeconds(8), Duration.ofSeconds(30))));

    @Test
    void aFreshProcessGetsTheManifestsWholeBounds() {
        assertEquals(new Warmup.Steady(Duration.ofSeconds(8), Duration.ofSeconds(30)), STEADY.load().warmupFor(JIT));
        assertEquals(STEADY.load().warmupFor(JIT), STEADY.load().warmupFor(JIT, Duration.ZERO));
    }

    @Test
    void aLaterWorkloadOfTheSameProcessWaitsForWhatIsLeftOfThem() {
        // 10.5 s old (a first workload's 8 s warm-up and 2 s window, and its cool-down, behind it):
        // C2's 8 s have passed, so the experiment's 2 s hold; 19.5 s of the manifest's 30 s are left.
        assertEquals(new Warmup.Steady(Duration.ofSeconds(2), Duration.ofMillis(19_500)),
                STEADY.load().warmupFor(JIT, Duration.ofMillis(10_500)));
        // Younger than the manifest's minimum: the rest of it.
        assertEquals(new Warmup.Steady(Duration.ofSeconds(5), Duration.ofSeconds(27)),
                STEADY.load().warmupFor(JIT, Duration.ofSeconds(3)));
        // Older than both: the experiment's own bounds, never less.
        assertEquals(new Warmup.Steady(Duration.ofSeconds(2), Duration.ofSeconds(15)),
                STEADY.load().warmupFor(JIT, Duration.ofSeconds(40)));
    }

    @Test
    void aFixedWarmupAndAManifestWithoutBoundsAreLeftAsGiven() {
        ExperimentSpec fixed = ExperimentSpec.builder().name("t").rounds(3)
                .warmup(new Warmup.Fixed(Duration.ofSeconds(3))).build();
        assertEquals(new Warmup.Fixed(Duration.ofSeconds(3)), fixed.load().warmupFor(JIT, Duration.ofSeconds(1)));
        assertEquals(STEADY.load().warmup(), STEADY.load().warmupFor(jit(Optional.empty()), Duration.ZERO));
    }
}
