package org.trustload.jvmstats;

/**
 * A stats source could not be opened or polled. {@link #isGone()} tells a target that has
 * disappeared (process exited, hsperfdata file removed, JMX connection lost) from a configuration
 * or access problem, so a listener can report it and stop polling without failing the test.
 */
public class StatsException extends org.trustload.common.ClientException {

    /** Category of a stats source that cannot be opened or polled. */
    public static final String STATS_ERROR = "statsError";

    private static final long serialVersionUID = 1L;

    private final boolean gone;

    public StatsException(String message, boolean gone, Throwable cause) {
        super(STATS_ERROR, message, cause == null ? message : message + ": " + readable(cause), cause);
        this.gone = gone;
    }

    public StatsException(String message, boolean gone) {
        this(message, gone, null);
    }

    /** True when the target no longer exists (as opposed to a bad configuration or a refused access). */
    public boolean isGone() {
        return gone;
    }
}
