package io.loadlab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding Loadlab's folder from a notebook's working directory. */
class LoadlabTest {

    private static final Path CHECKOUT = Path.of(System.getProperty("user.dir")).toAbsolutePath();

    @TempDir
    Path tmp;

    @Test
    void fromTheNotebooksFolderItIsTheCheckout() {
        assertEquals(CHECKOUT, Loadlab.home(Optional.empty(), CHECKOUT.resolve("notebooks")));
        assertEquals(CHECKOUT, Loadlab.home(Optional.of(" "), CHECKOUT.resolve("data/sample")));
    }

    @Test
    void theEnvironmentComesFirst() {
        assertEquals(tmp.resolve("elsewhere"), Loadlab.home(Optional.of(tmp + "/x/../elsewhere"), CHECKOUT));
    }

    @Test
    void aFolderWithSubjectsButNoPomIsNotIt() throws IOException {
        Files.createDirectories(tmp.resolve("subjects"));
        Path inside = Files.createDirectories(tmp.resolve("a/b"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Loadlab.home(Optional.empty(), inside));
        assertEquals("cannot find Loadlab's folder (subjects/ and pom.xml) above " + inside + "; set LOADLAB_HOME",
                e.getMessage());
        Files.writeString(tmp.resolve("pom.xml"), "<project/>");
        assertEquals(tmp, Loadlab.home(Optional.empty(), inside));
    }
}
