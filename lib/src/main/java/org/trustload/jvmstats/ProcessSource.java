package org.trustload.jvmstats;

/** Any local process by PID, through {@code /proc}: CPU time, RSS, threads, open files (no GC). */
public final class ProcessSource implements StatsSource {

    private final ProcStats proc;

    public ProcessSource(long pid) throws StatsException {
        proc = new ProcStats(pid);
    }

    @Override
    public StatsSnapshot poll() throws StatsException {
        StatsSnapshot.Builder b = StatsSnapshot.builder(System.currentTimeMillis());
        proc.fill(b, true);
        return b.build();
    }

    @Override
    public String describe() {
        return "process pid " + proc.pid() + " (/proc)";
    }

    @Override
    public boolean isLocalToLoadGenerator() {
        return proc.pid() == ProcessHandle.current().pid();
    }

    @Override
    public void close() {
        // nothing held open between polls
    }

    /** Factory for {@code process}. */
    public static final class Factory implements StatsSourceFactory {
        @Override
        public String name() {
            return "process";
        }

        @Override
        public StatsSource open(SourceConfig config) throws StatsException {
            return new ProcessSource(config.pid());
        }
    }
}
