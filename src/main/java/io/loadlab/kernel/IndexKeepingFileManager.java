package io.loadlab.kernel;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;

/**
 * JShell's compiler file manager, less one cost per compile. javac gives every task it creates
 * the {@code --multi-release} option again, with the same value, and javac's file manager drops
 * its index of the class path's folders on any option: so each of the three javac tasks of a
 * cell (parse, the expression's type, compile) listed all the folders of the kernel's 52 jars
 * again. This manager passes that option on only when its value changes; every other option,
 * such as a class path added by {@code %jars}, still reaches javac's manager and drops the index.
 * Everything else is forwarded as it is.
 */
final class IndexKeepingFileManager extends ForwardingJavaFileManager<StandardJavaFileManager>
        implements StandardJavaFileManager {

    private static final String MULTI_RELEASE = "--multi-release";

    /** The value of {@code --multi-release} last passed on; null before the first. */
    private String multiRelease;

    IndexKeepingFileManager(StandardJavaFileManager delegate) {
        super(delegate);
    }

    @Override
    public synchronized boolean handleOption(String current, Iterator<String> remaining) {
        if (MULTI_RELEASE.equals(current)) {
            List<String> rest = new ArrayList<>();
            remaining.forEachRemaining(rest::add);
            String value = rest.isEmpty() ? null : rest.get(0);
            if (value != null && value.equals(multiRelease)) {
                return true;
            }
            boolean handled = fileManager.handleOption(current, rest.iterator());
            multiRelease = handled ? value : null;
            return handled;
        }
        return fileManager.handleOption(current, remaining);
    }

    @Override
    public boolean isSameFile(FileObject a, FileObject b) {
        return fileManager.isSameFile(a, b);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjectsFromFiles(Iterable<? extends File> files) {
        return fileManager.getJavaFileObjectsFromFiles(files);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjectsFromPaths(Collection<? extends Path> paths) {
        return fileManager.getJavaFileObjectsFromPaths(paths);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjects(File... files) {
        return fileManager.getJavaFileObjects(files);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjects(Path... paths) {
        return fileManager.getJavaFileObjects(paths);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjectsFromStrings(Iterable<String> names) {
        return fileManager.getJavaFileObjectsFromStrings(names);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjects(String... names) {
        return fileManager.getJavaFileObjects(names);
    }

    @Override
    public void setLocation(Location location, Iterable<? extends File> files) throws IOException {
        fileManager.setLocation(location, files);
    }

    @Override
    public void setLocationFromPaths(Location location, Collection<? extends Path> paths) throws IOException {
        fileManager.setLocationFromPaths(location, paths);
    }

    @Override
    public void setLocationForModule(Location location, String moduleName, Collection<? extends Path> paths)
            throws IOException {
        fileManager.setLocationForModule(location, moduleName, paths);
    }

    @Override
    public Iterable<? extends File> getLocation(Location location) {
        return fileManager.getLocation(location);
    }

    @Override
    public Iterable<? extends Path> getLocationAsPaths(Location location) {
        return fileManager.getLocationAsPaths(location);
    }

    @Override
    public Path asPath(FileObject file) {
        return fileManager.asPath(file);
    }

    @Override
    public void setPathFactory(PathFactory factory) {
        fileManager.setPathFactory(Objects.requireNonNull(factory, "factory"));
    }
}
