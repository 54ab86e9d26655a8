package io.loadlab.subject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadlab.workload.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bundled subject, in every variant (every protocol variant among them, each answer over its
 * protocol), started from its manifest and checked endpoint by endpoint against the subject contract. A subject whose toolchain is missing is skipped with
 * the reason, unless {@code LOADLAB_REQUIRE_ALL_SUBJECTS=1} (set by scripts/test after it
 * installed the toolchains), where it fails. {@code -Dloadlab.contract.subjects=RE} checks only the
 * subjects whose names match (the others are not listed), for a quick check of some.
 */
class SubjectContractTest {

    private static final Path HOME = Path.of(System.getProperty("user.dir"));

    @TempDir
    Path tmp;

    @TestFactory
    List<DynamicTest> everySubjectKeepsTheContract() {
        Subjects catalog = Subjects.load(HOME.resolve("subjects"), Workload.builtinNames());
        assertTrue(catalog.all().size() >= 8, "the bundled subjects: " + catalog.all());
        boolean requireAll = "1".equals(System.getenv("LOADLAB_REQUIRE_ALL_SUBJECTS"));
        List<DynamicTest> tests = new ArrayList<>();
        SubjectLauncher launcher = new SubjectLauncher(HOME);
        java.util.regex.Pattern only = java.util.regex.Pattern.compile(
                System.getProperty("loadlab.contract.subjects", ".*"));
        for (Subject s : catalog.all()) {
            if (!only.matcher(s.name()).matches()) {
                continue;
            }
            for (Map<String, String> variant : s.variantCombinations()) {
                String name = s.name() + (variant.isEmpty() ? "" : " [" + Subject.label(variant) + "]");
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    if (!s.available()) {
                        if (requireAll) {
                            fail(s.name() + " is unavailable (" + s.unavailableReason().get()
                                    + ") although scripts/test installs every toolchain");
                        }
                        Assumptions.abort("skipped: " + s.name() + " " + s.unavailableReason().get());
                    }
                    check(launcher, s, variant);
                }));
            }
        }
        return tests;
    }

    private void check(SubjectLauncher launcher, Subject s, Map<String, String> variant) throws IOException {
        Path dir = Files.createTempDirectory(tmp, s.name());
        SubjectCheck.Outcome o = SubjectCheck.run(launcher, s, variant, dir);
        assertFalse(o.results().isEmpty());
        String failed = o.results().stream().filter(r -> !r.passed())
                .map(r -> r.check() + ": " + r.problem()).collect(Collectors.joining("\n"));
        assertEquals("", failed, s.name() + " [" + Subject.label(variant) + "] breaks the contract");
        assertFalse(o.root().isAlive(), "the subject is stopped by PID");
    }
}
