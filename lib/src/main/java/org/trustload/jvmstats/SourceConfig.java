package org.trustload.jvmstats;

/**
 * Where and how to read a target.
 *
 * @param target           JMX service URL or {@code host:port} for {@code jmx}; a process id for
 *                         {@code jvm-pid} and {@code process}; ignored for {@code self}
 * @param username         JMX user, empty for none
 * @param password         JMX password, empty for none (never logged)
 * @param connectTimeoutMs bound on opening a connection (JMX connect, attach)
 * @param callTimeoutMs    bound on one poll's remote calls
 */
public record SourceConfig(String target, String username, String password, long connectTimeoutMs,
                           long callTimeoutMs) {

    public SourceConfig {
        target = target == null ? "" : target.trim();
        username = username == null ? "" : username;
        password = password == null ? "" : password;
        if (connectTimeoutMs <= 0 || callTimeoutMs <= 0) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
    }

    /** A config naming only a target, with 5 s timeouts. */
    public static SourceConfig of(String target) {
        return new SourceConfig(target, "", "", 5000, 5000);
    }

    @Override
    public String toString() {
        return "SourceConfig[target=" + target + ", username=" + username + ", password="
                + (password.isEmpty() ? "" : "***") + ", connectTimeoutMs=" + connectTimeoutMs
                + ", callTimeoutMs=" + callTimeoutMs + "]";
    }

    /** The target as a process id, or a clear error. */
    long pid() throws StatsException {
        try {
            long pid = Long.parseLong(target);
            if (pid <= 0) {
                throw new NumberFormatException();
            }
            return pid;
        } catch (NumberFormatException e) {
            throw new StatsException("not a process id: '" + target + "'", false);
        }
    }
}
