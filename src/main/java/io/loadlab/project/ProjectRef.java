package io.loadlab.project;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The project an experiment ran, as {@code experiment.json} records it (its spec's {@code project}):
 * enough to plan the same runs again for {@code run --resume} and {@code rerun}, whatever the file
 * holds by then.
 *
 * @param file    the project file, absolute; relative paths in it ({@code dir:}, {@code body-file:})
 *                resolve against its folder
 * @param text    the file's text as it was read when the experiment was created
 * @param commits each revision subject's commit id ({@code api@v1.4.0 -> 3f2a...}), so that a
 *                revision that moved since ({@code HEAD}, a branch) is built as it was
 */
public record ProjectRef(Path file, String text, Map<String, String> commits) {
    public ProjectRef {
        file = file.toAbsolutePath().normalize();
        commits = Collections.unmodifiableMap(new LinkedHashMap<>(commits));
    }
}
