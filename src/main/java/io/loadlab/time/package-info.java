/**
 * Durations as people write them, read and shown in one place: {@link io.loadlab.time.Durations#parse}
 * reads {@code 500us}, {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m} and {@code 1h} (a bare
 * number is seconds; case and spaces before the unit are ignored), and
 * {@link io.loadlab.time.Durations#format} prints the short form ({@code 250ms}, {@code 10s}, {@code 2m}).
 * A text that is no duration is a {@link io.loadlab.time.DurationException} whose message gives the forms.
 *
 * <p>It uses nothing of Loadlab's: {@code load}, {@code subject}, {@code project},
 * {@code experiment} and {@code cli} use it, never the other way round.
 *
 * <p>Why it is built this way:
 * <ul>
 *   <li>One reader for every place a person writes a duration (the command line, {@code subject.yaml},
 *       {@code loadlab.yaml}, the experiment spec and the engine's warm-up), so that {@code 10s} means
 *       the same everywhere and a mistake gets the same one-line message.</li>
 *   <li>{@link io.loadlab.time.DurationException} is an exception of its own (an
 *       {@code IllegalArgumentException}): the manifest and project readers catch it to name the file
 *       and field, and {@code cli.Main} shows it as one line with exit code 2.</li>
 * </ul>
 */
package io.loadlab.time;
