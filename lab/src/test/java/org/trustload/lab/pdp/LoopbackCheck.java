package org.trustload.lab.pdp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which TCP sockets listen, read from /proc (what {@code ss -ltn} shows): the local address of every
 * listening socket on a port, and the wildcard listeners owned by this process.
 */
final class LoopbackCheck {
    private LoopbackCheck() {
    }

    /** Local addresses ({@code 127.0.0.1:P}, {@code 0.0.0.0:P}, {@code [::]:P}) of listeners on {@code port}. */
    static List<String> listeners(int port) throws IOException {
        List<String> out = new ArrayList<>();
        for (String[] l : listening()) {
            if (Integer.parseInt(l[1], 16) == port) {
                out.add(address(l[0]) + ":" + port);
            }
        }
        return out;
    }

    /** Listeners of this process bound to 0.0.0.0 or :: (inodes matched against /proc/self/fd). */
    static List<String> wildcardListenersOfThisProcess() throws IOException {
        Set<String> mine = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String t = Files.readSymbolicLink(fd).toString();
                    if (t.startsWith("socket:[")) {
                        mine.add(t.substring(8, t.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (String[] l : listening()) {
            String addr = address(l[0]);
            if (mine.contains(l[2]) && (addr.equals("0.0.0.0") || addr.equals("[::]"))) {
                out.add(addr + ":" + Integer.parseInt(l[1], 16));
            }
        }
        return out;
    }

    /** {hex address, hex port, inode} of every socket in state LISTEN (0A). */
    private static List<String[]> listening() throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String file : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path p = Path.of(file);
            if (!Files.exists(p)) {
                continue;
            }
            List<String> lines = Files.readAllLines(p);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f[3].equals("0A")) {
                    String[] local = f[1].split(":");
                    out.add(new String[] {local[0], local[1], f[9]});
                }
            }
        }
        return out;
    }

    private static String address(String hex) {
        if (hex.length() == 8) {
            long v = Long.parseLong(hex, 16);
            // little-endian on x86: 0100007F is 127.0.0.1
            return String.format(Locale.ROOT, "%d.%d.%d.%d", v & 0xff, (v >> 8) & 0xff,
                    (v >> 16) & 0xff, (v >> 24) & 0xff);
        }
        if (hex.equals("00000000000000000000000000000000")) {
            return "[::]";
        }
        if (hex.equals("0000000000000000FFFF00000100007F")) {
            // ::ffff:127.0.0.1 as /proc prints it (four little-endian words)
            return "127.0.0.1";
        }
        return "[" + hex + "]";
    }
}
