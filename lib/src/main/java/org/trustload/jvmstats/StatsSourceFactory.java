package org.trustload.jvmstats;

/**
 * Creates {@link StatsSource}s of one kind; registered in
 * {@code META-INF/services/org.trustload.jvmstats.StatsSourceFactory} so a new kind plugs in without
 * touching the listener.
 */
public interface StatsSourceFactory {

    /** The kind's stable name as users type it: {@code self}, {@code jmx}, {@code jvm-pid}, {@code process}. */
    String name();

    /** Opens a source; bad configuration and unreachable targets throw with a readable message. */
    StatsSource open(SourceConfig config) throws StatsException;
}
