package org.trustload.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a lab service was asked for, by name (the key, entry, decision input or page a request named),
 * counted without a lock; a service prints {@link #line} when it stops, so a run's {@code lab.log} shows
 * whether the load was spread over several of them (a plan that asks for one entry over and over
 * measures a server's cache, not its work). At most {@value #MAX_NAMES} names are kept; later new names
 * are counted in the total only.
 */
public final class Tally {
    /** Names kept. */
    static final int MAX_NAMES = 100_000;

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();

    /** Counts one request for {@code name}. */
    public void add(String name) {
        total.increment();
        LongAdder c = counts.get(name);
        if (c == null && counts.size() < MAX_NAMES) {
            c = counts.computeIfAbsent(name, n -> new LongAdder());
        }
        if (c != null) {
            c.increment();
        }
    }

    /** Requests counted. */
    public long total() {
        return total.sum();
    }

    /** Distinct names kept. */
    public int distinct() {
        return counts.size();
    }

    /**
     * {@code "trustload-lab: SERVICE: N WHAT named M distinct THINGS (most asked: a 5, b 4, ...)"}; empty
     * when nothing was asked.
     */
    public String line(String service, String what, String things) {
        long n = total();
        if (n == 0) {
            return "";
        }
        List<Map.Entry<String, Long>> top = new ArrayList<>();
        counts.forEach((k, v) -> top.add(Map.entry(k, v.sum())));
        top.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<String> shown = top.subList(0, Math.min(5, top.size())).stream()
                .map(e -> e.getKey() + " " + e.getValue()).toList();
        return "trustload-lab: " + service + ": " + n + " " + what + " named " + distinct() + " distinct " + things
                + " (most asked: " + String.join(", ", shown) + (top.size() > 5 ? ", ..." : "") + ")";
    }

    /** Prints {@link #line} to the lab's output when anything was asked. */
    public void print(String service, String what, String things) {
        String l = line(service, what, things);
        if (!l.isEmpty()) {
            System.out.println(l);
        }
    }
}
