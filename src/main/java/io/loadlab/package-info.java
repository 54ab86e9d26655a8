/**
 * Loadlab's own folder and the one-call answers, for notebooks, JShell and scripts:
 * {@link io.loadlab.Loadlab} finds the folder ({@code home()}), loads experiments ({@code load(...)})
 * and runs a project file ({@code run(...)}); {@link io.loadlab.Analysis} answers the common questions
 * of what was loaded ({@code compare}, {@code summary}, {@code warnings},
 * {@code latency(subject, workload).p(99.9)}, {@code latencyPercentiles}), with {@code results()} for
 * the rest.
 *
 * <p>It uses {@code data} and {@code stats} (the answers), and for {@code Loadlab.run} also
 * {@code experiment}, {@code cli} ({@code ProjectRuns}) and {@code kernel} ({@code NotebookProgress});
 * no package of Loadlab uses it: JShell's start-up ({@code src/main/jshell/loadlab.jsh}, the kernel's
 * imports) and the notebooks name it. {@code PackageDependenciesTest} does not check this package.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>{@link io.loadlab.Analysis} exists because {@link io.loadlab.data.Results}, in {@code data},
 *       may not use {@code stats}: the one-call answers sit above both, and each comes from the same
 *       classes as {@code loadlab compare} ({@link io.loadlab.stats.Comparison},
 *       {@link io.loadlab.stats.Stats}, {@link io.loadlab.stats.Warnings}) with their default
 *       options.</li>
 *   <li>A name that matches nothing is an error listing the names there are: a misspelt subject or
 *       workload in {@code latency(...)} used to give an empty histogram whose percentiles read 0. A
 *       group whose runs recorded no latency (imported runs) still gives an empty histogram, and
 *       {@link io.loadlab.data.GroupLatency#p} says so.</li>
 *   <li>{@code Loadlab.home()} takes {@code $LOADLAB_HOME}, else {@code -Dloadlab.home}, else the
 *       checkout its classes came from (a kernel or JShell started in a user's project folder still
 *       finds the bundled subjects), else the first folder at or above the working directory that
 *       holds {@code subjects/} and {@code pom.xml} (Jupyter starts a kernel in its notebook's folder).
 *       {@code load(...)} looks for a relative folder that is not under the working directory in that
 *       home, so {@code data/sample} works from {@code notebooks/} too.</li>
 *   <li>{@code Loadlab.run(projectFile, options...)} plans exactly as {@code loadlab run -f FILE}
 *       does, through the command's own options ({@code cli.ProjectRuns}): one rule for what a run
 *       accepts, and an option the command refuses is refused here, in one line. Its progress is
 *       a bar below the cell in a notebook, lines on stderr elsewhere.</li>
 * </ul>
 */
package io.loadlab;
