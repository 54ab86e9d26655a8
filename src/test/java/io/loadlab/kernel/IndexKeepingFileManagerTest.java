package io.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import jdk.jshell.JShell;
import jdk.jshell.SnippetEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel's compiler file manager keeps javac's class-path index across tasks, and only that. */
class IndexKeepingFileManagerTest {

    @Test
    void aRepeatedMultiReleaseValueIsNotPassedOnButEveryOtherOptionIs() {
        List<String> passed = new ArrayList<>();
        StandardJavaFileManager recording = (StandardJavaFileManager) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {StandardJavaFileManager.class}, (proxy, method, args) -> {
                    if (method.getName().equals("handleOption")) {
                        @SuppressWarnings("unchecked")
                        Iterator<String> rest = (Iterator<String>) args[1];
                        passed.add(args[0] + "=" + (rest.hasNext() ? rest.next() : ""));
                        return true;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        IndexKeepingFileManager manager = new IndexKeepingFileManager(recording);

        assertTrue(manager.handleOption("--multi-release", List.of("17").iterator()));
        assertTrue(manager.handleOption("--multi-release", List.of("17").iterator()));
        assertTrue(manager.handleOption("-classpath", List.of("a.jar").iterator()));
        assertTrue(manager.handleOption("-classpath", List.of("a.jar").iterator()));
        assertTrue(manager.handleOption("--multi-release", List.of("25").iterator()));
        assertTrue(manager.handleOption("--multi-release", List.of("25").iterator()));

        assertEquals(List.of("--multi-release=17", "-classpath=a.jar", "-classpath=a.jar", "--multi-release=25"), passed);
    }

    @Test
    void classesAddedToTheClassPathAfterCompilesAreStillFound(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("src/probe/Probe.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package probe; public class Probe { public static int answer() { return 42; } }");
        Path classes = dir.resolve("classes");
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), source.toString());
        assertEquals(0, rc, "javac of the probe class");

        try (JShell shell = JShell.builder().executionEngine("local")
                .fileManager(IndexKeepingFileManager::new).build()) {
            // Two compiles first, so that javac's index of the class path exists and was kept.
            assertEquals("2", value(shell, "1 + 1"));
            assertEquals("3", value(shell, "1 + 2"));
            shell.addToClasspath(classes.toString());
            assertEquals("42", value(shell, "probe.Probe.answer()"));
        }
    }

    private static String value(JShell shell, String code) {
        List<SnippetEvent> events = shell.eval(code);
        SnippetEvent main = events.stream().filter(e -> e.causeSnippet() == null).findFirst().orElseThrow();
        assertEquals(jdk.jshell.Snippet.Status.VALID, main.status(),
                () -> code + ": " + shell.diagnostics(main.snippet()).map(d -> d.getMessage(java.util.Locale.ROOT)).toList());
        return main.value();
    }
}
