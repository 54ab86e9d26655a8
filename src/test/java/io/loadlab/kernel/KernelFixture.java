package io.loadlab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/** An in-process kernel that records its displays instead of sending them. */
final class KernelFixture implements AutoCloseable {

    static final Path HOME = Path.of(System.getProperty("user.dir")).toAbsolutePath();

    final List<DisplayData> shown = new CopyOnWriteArrayList<>();
    final List<DisplayData> updated = new CopyOnWriteArrayList<>();
    final LoadlabKernel kernel;

    KernelFixture() {
        List<String> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(s -> !s.isBlank()).collect(Collectors.toList());
        kernel = new LoadlabKernel(classpath, Optional.of(HOME), HOME, new LoadlabKernel.Displays() {
            @Override
            public void display(DisplayData data) {
                shown.add(data);
            }

            @Override
            public void update(DisplayData data) {
                updated.add(data);
            }
        });
    }

    /** The data of one MIME type in a display, null when absent. */
    static String text(DisplayData d, String mime) {
        Object v = d.getData(MIMEType.parse(mime));
        return v == null ? null : v.toString();
    }

    @Override
    public void close() {
        kernel.close();
    }
}
