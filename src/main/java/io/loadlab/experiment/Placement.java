package io.loadlab.experiment;

import io.loadlab.agent.SubjectHost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where an experiment's processes run and how long a subject may take to start: the CPUs of the
 * subjects and of the load on this host, or a subject host whose agent starts the subjects.
 *
 * @param serverCpus           CPUs for the subjects (taskset list); empty = the default split
 * @param loadCpus             CPUs for the engine; empty = the default split
 * @param subjectHost          the host the subjects run on, started and sampled there by its agent
 *                             (which has {@code --allow-subjects}); empty for this host
 * @param readyTimeoutOverride readiness timeout for every subject instead of its manifest's
 */
public record Placement(Optional<String> serverCpus, Optional<String> loadCpus, Optional<SubjectHost> subjectHost,
                        Optional<Duration> readyTimeoutOverride) {

    private static final Pattern CPU_LIST = Pattern.compile("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

    /**
     * {@code subjectHost} may be {@code null} for none.
     *
     * @throws ExperimentException naming a CPU list that is not one, one list without the other, or
     *                             CPUs given for subjects that run on a subject host
     */
    public Placement {
        List<String> problems = new ArrayList<>();
        serverCpus.filter(c -> !CPU_LIST.matcher(c).matches())
                .ifPresent(c -> problems.add("server-cpus: a list such as 0 or 0-1 or 0,2, got '" + c + "'"));
        loadCpus.filter(c -> !CPU_LIST.matcher(c).matches())
                .ifPresent(c -> problems.add("load-cpus: a list such as 1 or 1-3, got '" + c + "'"));
        if (serverCpus.isPresent() != loadCpus.isPresent()) {
            problems.add("server-cpus and load-cpus: give both or neither");
        }
        subjectHost = subjectHost == null ? Optional.empty() : subjectHost;
        if (subjectHost.isPresent() && serverCpus.isPresent()) {
            problems.add("server-cpus: the subjects run on the subject host " + subjectHost.get().address()
                    + ", unpinned; drop --server-cpus and --load-cpus");
        }
        ExperimentSpec.refuse(problems);
    }
}
