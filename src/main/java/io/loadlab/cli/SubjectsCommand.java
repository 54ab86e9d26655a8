package io.loadlab.cli;

import io.loadlab.format.TextTable;
import io.loadlab.subject.ContractCheck;
import io.loadlab.subject.Subject;
import io.loadlab.subject.SubjectCheck;
import io.loadlab.subject.SubjectException;
import io.loadlab.subject.SubjectLauncher;
import io.loadlab.subject.Subjects;
import io.loadlab.workload.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loadlab subjects}: lists the subjects, and checks them against the contract. */
@Command(name = "subjects", mixinStandardHelpOptions = true, usageHelpWidth = 100,
        description = {"List the subjects under subjects/, whether each can run here, its workloads and variants.",
                "",
                "With --check, start each matching available subject (every variant) and check every endpoint",
                "it claims against the subject contract; exit 1 when a check fails."})
final class SubjectsCommand implements Callable<Integer> {

    @Spec
    CommandSpec commandSpec;

    @Option(names = "--check", paramLabel = "RE", description = "check the subjects whose name matches RE")
    String check;

    @Override
    public Integer call() throws IOException {
        PrintWriter w = commandSpec.commandLine().getOut();
        Path home = Home.path();
        Subjects subjects = Subjects.load(home.resolve("subjects"), Workload.builtinNames());
        if (check == null) {
            List<String[]> rows = new ArrayList<>();
            for (Subject s : subjects.all()) {
                List<String> variants = new ArrayList<>();
                s.manifest().variants().forEach((k, v) -> variants.add(k + "=" + String.join("|", v)));
                rows.add(new String[] {s.name(), s.available() ? "yes" : "no: " + s.unavailableReason().get(),
                        s.manifest().language(), String.join(",", s.manifest().workloads()), String.join(" ", variants)});
            }
            TextTable.print(w, new String[] {"subject", "available", "language", "workloads", "variants"}, rows, 5);
            w.flush();
            return 0;
        }
        SubjectLauncher launcher = new SubjectLauncher(home);
        boolean allPassed = true;
        for (Subject s : subjects.matching(check)) {
            if (!s.available()) {
                w.printf(Locale.ROOT, "%s: skipped, %s%n", s.name(), s.unavailableReason().get());
                continue;
            }
            for (Map<String, String> variant : s.variantCombinations()) {
                String label = s.name() + (variant.isEmpty() ? "" : " [" + Subject.fullLabel(variant) + "]");
                w.printf(Locale.ROOT, "%s:%n", label);
                w.flush();
                Path work = Files.createTempDirectory("loadlab-check-");
                try {
                    for (ContractCheck.Result r : SubjectCheck.run(launcher, s, variant, work).results()) {
                        w.printf(Locale.ROOT, "  %-4s %s%s%n", r.passed() ? "ok" : "FAIL", r.check(),
                                r.passed() ? "" : ": " + r.problem());
                        allPassed &= r.passed();
                    }
                } catch (SubjectException | IOException e) {
                    w.printf(Locale.ROOT, "  FAIL %s%n", e.getMessage().replace("\n", "\n       "));
                    allPassed = false;
                }
                w.flush();
            }
        }
        return allPassed ? 0 : Main.EXIT_FAILED;
    }
}
