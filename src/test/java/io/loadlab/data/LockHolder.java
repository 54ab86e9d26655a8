package io.loadlab.data;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A child JVM for {@link ExperimentStoreLockTest}: resumes (opens) the folder in {@code args[0]},
 * prints {@code locked} and then waits on its stdin, holding the folder's lock until it is killed.
 */
public final class LockHolder {

    private LockHolder() {
    }

    public static void main(String[] args) throws IOException {
        ExperimentStore.Opened opened = ExperimentStore.open(Path.of(args[0]));
        System.out.println("locked " + opened.doneRunIds().size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // held until the parent kills this process (or closes its stdin)
        }
        opened.store().close();
    }
}
