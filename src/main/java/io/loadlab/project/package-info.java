/**
 * A user's project file, {@code loadlab.yaml} ({@code docs/guide/project-file.md} has every field): its
 * subjects (inline with the fields of a {@code subject.yaml}, a folder with its own, one of Loadlab's
 * bundled ones, or a server someone else started at a loopback {@code url:}), git revisions of the
 * inline ones, its workloads and its plan, read by {@link io.loadlab.project.ProjectFile} into a
 * {@link io.loadlab.project.Project} and made ready as a {@link io.loadlab.project.Catalog}.
 *
 * <p>It uses {@code subject} (manifests, whose reader it shares), {@code workload}, {@code host}
 * (the cache folder) and {@code time}, and nothing that runs load or stores data: {@code experiment}
 * and {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>Every error is one line naming the file, the entry and the field and what to change: the
 *       file is the user's, and a stack trace or a wall of YAML parser text tells them nothing.
 *       Unknown fields and duplicate keys are refused (Jackson's strict duplicate detection), since
 *       a misspelt {@code expect} would otherwise silently count every answer as correct.</li>
 *   <li>A revision is checked out apart with {@code git worktree add --detach}, one folder per commit
 *       in the cache ({@code <cache>/revisions/<repo-id>/<commit>/}), so the user's working tree is
 *       never touched and two revisions build side by side; the commit id, not the revision's name,
 *       keys the checkout and the build, so {@code HEAD} moving later builds the new commit while
 *       {@code run --resume} (given the recorded commits) builds the old one again.</li>
 *   <li>git runs without a shell, each argument one element of a list, and a revision starting with
 *       {@code -} is refused: a revision is user text that git would otherwise read as an option.</li>
 * </ul>
 */
package io.loadlab.project;
