package io.loadlab.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing the scratch folders of subject processes and tool runs. */
final class ScratchFolders {

    private ScratchFolders() {
    }

    /** Deletes a folder and everything in it; nothing when it does not exist. */
    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Deletes a scratch folder, and its parent when that is left empty; a folder that cannot be
     * removed costs disk, not data, so it is left.
     */
    static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            deleteRecursively(dir);
            Path parent = dir.getParent();
            try (Stream<Path> rest = Files.list(parent)) {
                if (rest.findAny().isEmpty()) {
                    Files.delete(parent);
                }
            }
        } catch (IOException e) {
            // Left for the user, or for the next resume, which clears scratch folders.
        }
    }
}
