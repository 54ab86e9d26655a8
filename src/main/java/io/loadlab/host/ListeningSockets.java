package io.loadlab.host;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which processes listen on which TCP ports, from Linux's {@code /proc/net/tcp}, {@code tcp6}
 * and each process's {@code fd} folder: so that the harness can tell a subject that listens on
 * the wrong port, or a port that another program took, from a subject that is merely slow.
 * Every method answers "unknown" (empty) where {@code /proc} cannot be read.
 */
public final class ListeningSockets {

    private static final String LISTEN = "0A";

    private ListeningSockets() {
    }

    /** Socket inode to port of every listening TCP socket (IPv4 and IPv6); empty without /proc. */
    public static Optional<Map<Long, Integer>> all() {
        Map<Long, Integer> out = new HashMap<>();
        boolean read = false;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException e) {
                continue; // no IPv6, or no /proc at all
            }
            read = true;
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals(LISTEN)) {
                    String local = f[1];
                    out.put(Long.parseLong(f[9]), Integer.parseInt(local.substring(local.indexOf(':') + 1), 16));
                }
            }
        }
        return read ? Optional.of(out) : Optional.empty();
    }

    /** The socket inodes a process holds open; empty when its fds cannot be read (gone, or not ours). */
    public static Set<Long> socketsOf(long pid) {
        Set<Long> out = new java.util.HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        out.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException | NumberFormatException e) {
                    // The fd was closed meanwhile: it holds nothing.
                }
            }
        } catch (IOException e) {
            // The process exited, or belongs to another user.
        }
        return out;
    }

    /** The ports the processes listen on, in order; empty when /proc cannot be read. */
    public static Optional<TreeSet<Integer>> portsOf(Collection<ProcessHandle> processes) {
        return all().map(listening -> {
            TreeSet<Integer> ports = new TreeSet<>();
            for (ProcessHandle p : processes) {
                for (long inode : socketsOf(p.pid())) {
                    Integer port = listening.get(inode);
                    if (port != null) {
                        ports.add(port);
                    }
                }
            }
            return ports;
        });
    }

    /**
     * The processes other than {@code ours} that hold a socket listening on {@code port}: as
     * {@code pid (command)} when this user may see their fds, else one entry saying a listener
     * exists. Empty when only {@code ours} listen there, or when /proc cannot be read.
     */
    public static List<String> othersOn(int port, Collection<ProcessHandle> ours) {
        Optional<Map<Long, Integer>> listening = all();
        if (listening.isEmpty()) {
            return List.of();
        }
        Set<Long> onPort = new java.util.HashSet<>();
        listening.get().forEach((inode, p) -> {
            if (p == port) {
                onPort.add(inode);
            }
        });
        for (ProcessHandle p : ours) {
            onPort.removeAll(socketsOf(p.pid()));
        }
        if (onPort.isEmpty()) {
            return List.of();
        }
        List<String> others = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(p -> {
            Set<Long> held = socketsOf(p.pid());
            if (held.stream().anyMatch(onPort::contains)) {
                others.add(p.pid() + " (" + p.info().commandLine().or(() -> p.info().command()).orElse("?") + ")");
            }
        });
        return others.isEmpty() ? List.of("a process Loadlab may not inspect") : others;
    }
}
