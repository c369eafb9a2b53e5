package org.trustload.jvmstats;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a HotSpot performance-data file ({@code /tmp/hsperfdata_<user>/<pid>}), the shared memory
 * {@code jstat} reads. Version 2 layout: a 32-byte prologue (magic {@code CAFEC0C0}, byte order, major
 * and minor version, used size, overflow, modification time, offset of the first entry, entry count)
 * followed by entries (entry length, name offset, vector length, data type, flags, units,
 * variability, data offset). Only {@code long} counters and byte-array strings exist in practice.
 */
public final class PerfData {

    private static final int MAGIC = 0xCAFEC0C0;
    private static final Path TMP = Path.of("/tmp");

    private final Map<String, Long> longs;
    private final Map<String, String> strings;

    private PerfData(Map<String, Long> longs, Map<String, String> strings) {
        this.longs = longs;
        this.strings = strings;
    }

    /** The hsperfdata file of a local JVM, whichever user runs it; null if there is none. */
    public static Path fileOf(long pid) throws IOException {
        String name = Long.toString(pid);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(TMP, "hsperfdata_*")) {
            for (Path dir : dirs) {
                Path f = dir.resolve(name);
                if (Files.isRegularFile(f)) {
                    return f;
                }
            }
        }
        return null;
    }

    /** Parses a file; throws {@link NoSuchFileException} when it has gone. */
    public static PerfData read(Path file) throws IOException {
        return parse(ByteBuffer.wrap(Files.readAllBytes(file)));
    }

    static PerfData parse(ByteBuffer buf) throws IOException {
        if (buf.limit() < 32) {
            throw new IOException("hsperfdata too short (" + buf.limit() + " bytes)");
        }
        buf.order(ByteOrder.BIG_ENDIAN);
        if (buf.getInt(0) != MAGIC) {
            throw new IOException(String.format("not an hsperfdata file (magic %08x)", buf.getInt(0)));
        }
        buf.order(buf.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int major = buf.get(5);
        if (major != 2) {
            throw new IOException("unsupported hsperfdata version " + major + "." + buf.get(6));
        }
        int used = Math.min(buf.getInt(8), buf.limit());
        int offset = buf.getInt(24);
        int count = buf.getInt(28);
        Map<String, Long> longs = new HashMap<>(count * 2);
        Map<String, String> strings = new HashMap<>();
        for (int i = 0; i < count && offset + 20 <= used; i++) {
            int length = buf.getInt(offset);
            if (length <= 0) {
                break;
            }
            int nameOffset = buf.getInt(offset + 4);
            int vectorLength = buf.getInt(offset + 8);
            byte type = buf.get(offset + 12);
            int dataOffset = buf.getInt(offset + 16);
            String name = cString(buf, offset + nameOffset, offset + length);
            int data = offset + dataOffset;
            if (type == 'J' && vectorLength == 0 && data + 8 <= used) {
                longs.put(name, buf.getLong(data));
            } else if (type == 'B' && vectorLength > 0) {
                strings.put(name, cString(buf, data, Math.min(data + vectorLength, used)));
            }
            offset += length;
        }
        return new PerfData(longs, strings);
    }

    private static String cString(ByteBuffer buf, int from, int limit) {
        int end = from;
        while (end < limit && buf.get(end) != 0) {
            end++;
        }
        byte[] b = new byte[end - from];
        buf.get(from, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** A long counter, or null when absent. */
    public Long getLong(String name) {
        return longs.get(name);
    }

    /** A string counter, or null when absent. */
    public String getString(String name) {
        return strings.get(name);
    }

    /**
     * The {@code jstat -gc} columns, computed as jstat's own option file defines them (JDK 17):
     * sizes scaled to KB, times are collector ticks divided by {@code sun.os.hrt.frequency}.
     */
    public JstatGc jstatGc() throws IOException {
        Long freq = getLong("sun.os.hrt.frequency");
        if (freq == null || freq <= 0) {
            throw new IOException("hsperfdata has no sun.os.hrt.frequency (not a HotSpot JVM?)");
        }
        double hz = freq;
        String g0 = "sun.gc.generation.0.space.";
        String g1 = "sun.gc.generation.1.space.0.";
        Long c2time = getLong("sun.gc.collector.2.time");
        double gct = (nz(getLong("sun.gc.collector.0.time"))
                + nz(getLong("sun.gc.collector.1.time")) + nz(c2time)) / hz;
        double[] v = {
            kb(g0 + "1.capacity"), kb(g0 + "2.capacity"), kb(g0 + "1.used"), kb(g0 + "2.used"),
            kb(g0 + "0.capacity"), kb(g0 + "0.used"), kb(g1 + "capacity"), kb(g1 + "used"),
            kb("sun.gc.metaspace.capacity"), kb("sun.gc.metaspace.used"),
            kb("sun.gc.compressedclassspace.capacity"), kb("sun.gc.compressedclassspace.used"),
            raw("sun.gc.collector.0.invocations"), ticks("sun.gc.collector.0.time", hz),
            raw("sun.gc.collector.1.invocations"), ticks("sun.gc.collector.1.time", hz),
            raw("sun.gc.collector.2.invocations"), ticks("sun.gc.collector.2.time", hz),
            gct,
        };
        return new JstatGc(v);
    }

    private double kb(String name) {
        Long v = getLong(name);
        return v == null ? Double.NaN : v / 1024.0;
    }

    private double raw(String name) {
        Long v = getLong(name);
        return v == null ? Double.NaN : v;
    }

    private double ticks(String name, double hz) {
        Long v = getLong(name);
        return v == null ? Double.NaN : v / hz;
    }

    private static long nz(Long v) {
        return v == null ? 0 : v;
    }
}
