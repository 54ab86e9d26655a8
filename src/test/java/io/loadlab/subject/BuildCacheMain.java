package io.loadlab.subject;

import java.nio.file.Path;
import java.util.Set;

/**
 * A second process for {@link BuildCacheTest}: builds the subject in {@code args[0]} into the cache
 * {@code args[1]} and prints the build folder.
 */
public final class BuildCacheMain {

    private BuildCacheMain() {
    }

    public static void main(String[] args) {
        SubjectManifest m = SubjectManifest.read(Path.of(args[0]), Set.of("plaintext"));
        System.out.println(new SubjectLauncher(Path.of("."), Path.of(args[1])).ensureBuilt(m));
    }
}
