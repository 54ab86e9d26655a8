package io.loadlab.experiment;

import io.loadlab.project.ProjectRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What an experiment measures: which subjects, in which of their variants and protocols, under which
 * workloads. {@link Plan} turns it, with the subjects and workloads it matches, into subject instances.
 *
 * @param subjects  regular expression over subject names (whole-name match)
 * @param workloads regular expression over workload names
 * @param variants  regular expression over variant labels such as {@code durability=fsync}; a pattern that
 *                  names only some of a subject's variants ({@code protocol=.*}) is matched against those,
 *                  the others at their first value (see {@link Plan}); empty for each subject's default
 *                  variant only
 * @param protocols regular expression over protocol variant values ({@code h1|h2-tls}, see
 *                  {@link io.loadlab.subject.ServedProtocol}); empty for what {@code variants} chooses
 * @param project   the user's project whose subjects and workloads these patterns choose from; empty
 *                  for Loadlab's bundled ones
 */
public record Selection(String subjects, String workloads, Optional<String> variants, Optional<String> protocols,
                        Optional<ProjectRef> project) {

    /** A selection from Loadlab's bundled subjects and workloads. */
    public Selection(String subjects, String workloads, Optional<String> variants, Optional<String> protocols) {
        this(subjects, workloads, variants, protocols, Optional.empty());
    }

    /** @throws ExperimentException naming each pattern that is missing or not a regular expression */
    public Selection {
        List<String> problems = new ArrayList<>();
        checkRegex("subjects", subjects, problems);
        checkRegex("workloads", workloads, problems);
        variants.ifPresent(v -> checkRegex("variants", v, problems));
        protocols.ifPresent(v -> checkRegex("protocols", v, problems));
        ExperimentSpec.refuse(problems);
    }

    private static void checkRegex(String field, String regex, List<String> problems) {
        if (regex == null || regex.isEmpty()) {
            problems.add(field + ": a regular expression is required");
            return;
        }
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            problems.add(field + ": '" + regex + "' is not a regular expression (" + e.getDescription() + ")");
        }
    }
}
