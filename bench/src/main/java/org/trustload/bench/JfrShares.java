package org.trustload.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the Java samples of some threads of a JFR recording go: each execution sample (in a time window, of
 * the threads whose name starts with a prefix) counts for the first {@link Category} in the given order that
 * has a frame anywhere in its stack, so a category listed early takes its callees from the ones listed after
 * it (the JTL writer inside the listeners' dispatch, a JMeter function inside TestBean set-up). What no
 * category claims is "the rest", whose most frequent top frames are kept to show what it holds.
 */
public final class JfrShares {

    /**
     * A named part of a sample's work.
     *
     * @param frames method name prefixes ({@code org.apache.jmeter.save.CSVSaveService.}, or a full
     *        {@code Class.method}): a sample's stack with a frame starting with one of them belongs here
     */
    public record Category(String name, List<String> frames) {
        public static Category of(String name, String... frames) {
            return new Category(name, List.of(frames));
        }
    }

    /** The samples counted, by category (in the given order, then "the rest"), and the rest's top frames. */
    public record Shares(int samples, Map<String, Integer> byCategory, Map<String, Integer> restTop) {

        /** Percent of the samples in a category. */
        public double pct(String category) {
            return samples == 0 ? Double.NaN : 100.0 * byCategory.getOrDefault(category, 0) / samples;
        }

        /** Markdown rows {@code | category | samples | % |}. */
        public String rows(String restName) {
            StringBuilder b = new StringBuilder();
            byCategory.forEach((k, v) -> b.append(String.format(Locale.ROOT, "| %s | %d | %.1f%% |%n", k, v, pct(k))));
            if (!restTop.isEmpty()) {
                List<String> top = new ArrayList<>();
                restTop.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(5)
                        .forEach(e -> top.add(
                                String.format(Locale.ROOT, "`%s` %.1f%%", e.getKey(), 100.0 * e.getValue() / samples)));
                b.append("| ").append(restName).append(": top frames ").append(String.join(", ", top))
                        .append(" | | |\n");
            }
            return b.toString();
        }
    }

    /** The rest's name in {@link Shares#byCategory}. */
    public static final String REST = "the rest";

    private JfrShares() {
    }

    /**
     * Reads {@code recording}: execution samples of threads named {@code threadPrefix}…, started in
     * [{@code from}, {@code to}) (epoch ms), attributed to {@code categories}.
     */
    public static Shares of(Path recording, String threadPrefix, long from, long to, List<Category> categories)
            throws IOException {
        Map<String, Integer> by = new LinkedHashMap<>();
        categories.forEach(c -> by.put(c.name(), 0));
        by.put(REST, 0);
        Map<String, Integer> restTop = new HashMap<>();
        int n = 0;
        try (RecordingFile f = new RecordingFile(recording)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                RecordedThread t = e.getThread("sampledThread");
                Instant at = e.getStartTime();
                if (t == null || t.getJavaName() == null || !t.getJavaName().startsWith(threadPrefix)
                        || at.toEpochMilli() < from || at.toEpochMilli() >= to || e.getStackTrace() == null) {
                    continue;
                }
                n++;
                List<RecordedFrame> frames = e.getStackTrace().getFrames();
                List<String> names = new ArrayList<>(frames.size());
                for (RecordedFrame fr : frames) {
                    RecordedMethod m = fr.getMethod();
                    names.add(m.getType().getName() + "." + m.getName());
                }
                String cat = REST;
                outer:
                for (Category c : categories) {
                    for (String name : names) {
                        for (String prefix : c.frames()) {
                            if (name.startsWith(prefix)) {
                                cat = c.name();
                                break outer;
                            }
                        }
                    }
                }
                by.merge(cat, 1, Integer::sum);
                if (cat.equals(REST) && !names.isEmpty()) {
                    restTop.merge(shortName(names.get(0)), 1, Integer::sum);
                }
            }
        }
        return new Shares(n, by, restTop);
    }

    /** {@code a.b.C.m} to {@code C.m}. */
    static String shortName(String frame) {
        int dot = frame.lastIndexOf('.');
        int cls = dot <= 0 ? -1 : frame.lastIndexOf('.', dot - 1);
        return cls < 0 ? frame : frame.substring(cls + 1);
    }
}
