package org.trustload.jvmstats;

/**
 * Something whose CPU, memory and GC counters can be read repeatedly: this JVM, a JVM over JMX, a
 * local JVM's hsperfdata, any local process. Sources are created by a {@link StatsSourceFactory}
 * found by name through {@code META-INF/services} ({@link StatsSources#open}).
 *
 * <p>{@link #poll()} is called from one polling thread; implementations need not be thread-safe.
 * Every call is bounded in time (JMX calls carry a timeout).
 */
public interface StatsSource extends AutoCloseable {

    /** Reads the counters now. */
    StatsSnapshot poll() throws StatsException;

    /** What is watched, for logs and summaries, e.g. {@code "jvm pid 1234 (hsperfdata)"}. Never holds secrets. */
    String describe();

    /**
     * True when this source watches the JVM or host that runs the load (the poller's own JVM), so in
     * distributed mode every engine must poll its own; false for a separate target that must be
     * polled exactly once.
     */
    boolean isLocalToLoadGenerator();

    @Override
    void close();
}
