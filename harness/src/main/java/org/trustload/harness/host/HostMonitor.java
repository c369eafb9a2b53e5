package org.trustload.harness.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.trustload.common.ChildProcess;
import org.trustload.harness.results.Jtl;
import org.trustload.jvmstats.PerfData;
import org.trustload.jvmstats.ProcessSource;
import org.trustload.jvmstats.RunQueue;
import org.trustload.jvmstats.StatsException;
import org.trustload.jvmstats.StatsSnapshot;
import org.trustload.jvmstats.StatsSource;

/**
 * Polls, once a second on a daemon thread, the CPU of the load generator (every local JMeter JVM of
 * the current phase, found among this process's descendants by a word of their command line), of the
 * watched server (any JVM Stats source: a local JVM or process, JMX, a Prometheus exporter) and of this
 * machine ({@code /proc/stat}), and the run-queue wait ({@link RunQueue}) of the JMeter JVMs and of a
 * local server. Each reading is kept with its time, so a load step's CPU is the difference between its
 * start and end. Optionally pins the load generator to some CPUs ({@code taskset}), so that it and the
 * server do not share them.
 */
public final class HostMonitor implements AutoCloseable {

    /**
     * One reading: wall time, CPU ms since the process started, GC count and GC ms (-1/NaN unknown), and for
     * the load generator and a local server the ms its threads spent runnable but waiting for a CPU (the run
     * queue, since the first reading; NaN unknown).
     */
    public record Point(long t, double cpuMs, long gcCount, double gcMs, double waitMs) {

        Point(long t, double cpuMs, long gcCount, double gcMs) {
            this(t, cpuMs, gcCount, gcMs, Double.NaN);
        }
    }

    /** CPU ms and run-queue wait ms (NaN unknown) over a window. */
    public record Usage(double cpuMs, double waitMs) {
    }

    /** Readings covering less of a window than this tell nothing of it. */
    static final long MIN_COVERED_MS = 500;

    /** A watched process's readings. */
    public static final class Series {
        final String name;
        final int cpus;
        final boolean remote;
        public final List<Point> points = new CopyOnWriteArrayList<>();

        public Series(String name, int cpus) {
            this(name, cpus, false);
        }

        Series(String name, int cpus, boolean remote) {
            this.name = name;
            this.cpus = cpus;
            this.remote = remote;
        }

        /** Whether the process runs on another host (a remote engine: its readings came with its samples). */
        public boolean remote() {
            return remote;
        }

        public String name() {
            return name;
        }

        /** CPUs the process may use (its affinity, or the source's CPU count). */
        public int cpus() {
            return cpus;
        }

        /** The reading at or before {@code t}, linearly interpolated between two readings; null outside. */
        Point at(long t) {
            Point before = null;
            for (Point p : points) {
                if (p.t() <= t) {
                    before = p;
                } else {
                    if (before == null) {
                        return null;
                    }
                    double f = (double) (t - before.t()) / (p.t() - before.t());
                    return new Point(t, before.cpuMs() + f * (p.cpuMs() - before.cpuMs()), before.gcCount(),
                            before.gcMs() + f * (p.gcMs() - before.gcMs()), before.waitMs()
                                    + f * (p.waitMs() - before.waitMs()));
                }
            }
            return before;
        }

        /** CPU ms used from {@code a} to {@code b}; NaN when not covered by readings. */
        public double cpuMs(long a, long b) {
            Point pa = at(a);
            Point pb = at(b);
            return pa == null || pb == null ? Double.NaN : pb.cpuMs() - pa.cpuMs();
        }

        /** Run-queue wait ms from {@code a} to {@code b}; NaN when unknown. */
        public double waitMs(long a, long b) {
            Point pa = at(a);
            Point pb = at(b);
            return pa == null || pb == null ? Double.NaN : pb.waitMs() - pa.waitMs();
        }

        /**
         * CPU and run-queue wait ms from {@code a} to {@code b} at the rate the readings within it show (from the
         * first at or after {@code a} to the last at or before {@code b}). Interpolating across the window's ends
         * mixes in what came before or after it: readings come once a second, and after a phase's last step the
         * server goes idle (a step that kept it 100% busy read 89%) or JMeter has exited (no reading after it).
         * With less than {@link #MIN_COVERED_MS} between the readings within, the interpolated difference
         * ({@link #cpuMs}); null when that is unknown too.
         */
        public Usage usage(long a, long b) {
            Point first = null;
            Point last = null;
            for (Point p : points) {
                if (p.t() >= a && p.t() <= b) {
                    first = first == null ? p : first;
                    last = p;
                }
            }
            if (first != null && last.t() - first.t() >= Math.min(MIN_COVERED_MS, b - a)) {
                double f = (double) (b - a) / (last.t() - first.t());
                return new Usage((last.cpuMs() - first.cpuMs()) * f, (last.waitMs() - first.waitMs()) * f);
            }
            double cpu = cpuMs(a, b);
            return Double.isNaN(cpu) || b > lastReading() ? null : new Usage(cpu, waitMs(a, b));
        }

        /** GC ms from {@code a} to {@code b} (the readings within, or just around); NaN when unknown. */
        public double gcMs(long a, long b) {
            Point pa = at(a);
            Point pb = at(b);
            return pa == null || pb == null || Double.isNaN(pa.gcMs()) || Double.isNaN(pb.gcMs()) ? Double.NaN
                    : pb.gcMs() - pa.gcMs();
        }

        /** Time of the first reading, or {@code Long.MAX_VALUE} without one. */
        public long firstReading() {
            return points.isEmpty() ? Long.MAX_VALUE : points.get(0).t();
        }

        /** Time of the last reading, or {@code Long.MIN_VALUE} without one. */
        public long lastReading() {
            return points.isEmpty() ? Long.MIN_VALUE : points.get(points.size() - 1).t();
        }

        /** Readings whose time lies in [a, b]: first and last, for GC deltas. */
        public Point[] span(long a, long b) {
            Point first = null;
            Point last = null;
            for (Point p : points) {
                if (p.t() >= a && p.t() <= b) {
                    if (first == null) {
                        first = p;
                    }
                    last = p;
                }
            }
            return first == null ? null : new Point[] {first, last};
        }
    }

    private final StatsSource server;
    private final Series serverSeries;
    private final Map<Long, Series> load = new LinkedHashMap<>();
    /** Run queues of the local load generator JVMs, and of a local server (by pid). */
    private final Map<Long, RunQueue> queues = new LinkedHashMap<>();
    private final long serverPid;
    /** Remote engines' JVMs, by engine, from the readings their sample rows carried. */
    private final Map<String, Series> remote = new LinkedHashMap<>();
    /** The load generator JVMs' hsperfdata files (their GC counters), once they exist. */
    private final Map<Long, Path> perfFiles = new LinkedHashMap<>();
    private final List<Point> machine = new CopyOnWriteArrayList<>();
    private final String loadCpus;
    private volatile Predicate<String> loadCommand = c -> false;
    private final Thread thread;
    private volatile boolean running = true;
    private String serverError = "";

    /**
     * @param server the server's stats source, or null when it is not watched
     * @param serverCpus CPUs the server's CPU is counted against
     * @param loadCpus {@code taskset} CPU list for the load generator, or null
     */
    public HostMonitor(StatsSource server, int serverCpus, String loadCpus) {
        this(server, serverCpus, 0, loadCpus);
    }

    /**
     * @param server the server's stats source, or null when it is not watched
     * @param serverCpus CPUs the server's CPU is counted against
     * @param serverPid the server's process on this machine, whose run-queue wait is read too; 0 when remote
     * @param loadCpus {@code taskset} CPU list for the load generator, or null
     */
    public HostMonitor(StatsSource server, int serverCpus, long serverPid, String loadCpus) {
        this.server = server;
        this.serverPid = server == null ? 0 : serverPid;
        this.serverSeries = server == null ? null : new Series(server.describe(), serverCpus);
        this.loadCpus = loadCpus;
        thread = new Thread(this::loop, "trustload-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    /** From now on, JMeter JVMs whose command line contains one of {@code words} are the load generator. */
    public synchronized void watchLoad(String... words) {
        List<String> w = List.of(words);
        loadCommand = c -> c.contains("ApacheJMeter") && w.stream().anyMatch(c::contains);
    }

    private void loop() {
        while (running) {
            long next = System.currentTimeMillis() + 1000;
            pollOnce();
            long sleep = next - System.currentTimeMillis();
            if (sleep > 0) {
                try {
                    Thread.sleep(sleep);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    synchronized void pollOnce() {
        long now = System.currentTimeMillis();
        machine.add(new Point(now, machineBusyMs(), -1, Double.NaN));
        if (server != null) {
            try {
                StatsSnapshot s = server.poll();
                serverSeries.points.add(new Point(s.epochMillis(), s.cpuMs(), s.gcCount(), s.gcTimeMs(),
                        serverPid > 0 ? queues.computeIfAbsent(serverPid, RunQueue::new).waitMs() : Double.NaN));
            } catch (StatsException e) {
                serverError = e.getMessage();
            }
        }
        Predicate<String> match = loadCommand;
        ProcessHandle.current().descendants().forEach(h -> {
            String cmd = h.info().commandLine().orElse("");
            if (match.test(cmd)) {
                Series s = load.get(h.pid());
                if (s == null) {
                    if (loadCpus != null) {
                        pin(h.pid());
                    }
                    // a distributed engine runs "ApacheJMeter.jar -s ...", its controller "... -R host:port,..."
                    String role = cmd.contains(".jar -s ") ? "engine pid " : cmd.contains(" -R ") ? "controller pid "
                            : "pid ";
                    s = new Series(role + h.pid(), allowedCpus(h.pid()));
                    load.put(h.pid(), s);
                }
                try (ProcessSource p = new ProcessSource(h.pid())) {
                    double cpuMs = p.poll().cpuMs();
                    StatsSnapshot gc = gcOf(h.pid());
                    s.points.add(new Point(System.currentTimeMillis(), cpuMs, gc == null ? -1 : gc.gcCount(),
                            gc == null ? Double.NaN : gc.gcTimeMs(),
                            queues.computeIfAbsent(h.pid(), RunQueue::ofLoadGenerator).waitMs()));
                } catch (StatsException e) {
                    // it exited between the listing and the read
                }
            }
        });
    }

    /**
     * The GC counters of the JVM {@code pid} from its hsperfdata file (what jstat reads), or null while it has none
     * or it cannot be read. A file, never the attach API: attaching starts a JMX agent in the load generator (a
     * listening socket) and can hang on a starved JVM.
     */
    private StatsSnapshot gcOf(long pid) {
        try {
            Path f = perfFiles.get(pid);
            if (f == null) {
                f = PerfData.fileOf(pid);
                if (f == null) {
                    return null;
                }
                perfFiles.put(pid, f);
            }
            return StatsSnapshot.builder(System.currentTimeMillis()).jstat(PerfData.read(f).jstatGc()).build();
        } catch (IOException | RuntimeException e) {
            return null; // not written yet, or the JVM is gone
        }
    }

    private void pin(long pid) {
        try {
            ChildProcess.run(List.of("taskset", "-a", "-p", "-c", loadCpus, Long.toString(pid)),
                    Duration.ofSeconds(30));
        } catch (IOException e) {
            serverError = "taskset failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** CPUs in the process's affinity mask ({@code Cpus_allowed_list}). */
    public static int allowedCpus(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return countCpus(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /** Counts a CPU list such as {@code 0-3,6}. */
    static int countCpus(String list) {
        int n = 0;
        for (String part : list.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            n += dash < 0 ? 1 : Integer.parseInt(p.substring(dash + 1)) - Integer.parseInt(p.substring(0, dash)) + 1;
        }
        return Math.max(1, n);
    }

    /** Busy CPU of the whole machine since boot, ms (user, nice, system, irq, softirq, steal). */
    static double machineBusyMs() {
        try {
            String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = cpu.trim().split("\\s+");
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy * 10.0; // USER_HZ is 100 on Linux
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** The server's readings, or null when not watched. */
    public Series server() {
        return serverSeries;
    }

    /** The last error reading the server, or empty. */
    public String serverError() {
        return serverError;
    }

    /** The load generator JVMs seen so far: this machine's, then remote engines'. */
    public synchronized List<Series> load() {
        List<Series> all = new ArrayList<>(load.values());
        all.addAll(remote.values());
        return all;
    }

    /**
     * Adds the readings of remote engines that a results file carries: each row of engine {@code host} (its thread
     * names start {@code host-}) holds the latest reading of its JVM in the column {@code column}, as
     * {@code epochMs/cpuMs/gcMs/waitMs/cpus} (the listeners' EngineLoad element). Readings seen before are kept, so
     * one series per engine grows over several runs (the phases of a sizing search).
     */
    public void readRemote(Path jtl, String column, List<String> hosts) throws IOException {
        Map<String, java.util.TreeMap<Long, Point>> got = new LinkedHashMap<>();
        Map<String, Integer> cpus = new LinkedHashMap<>();
        Jtl.forEach(jtl, column, (row, value) -> {
            if (value.isEmpty()) {
                return;
            }
            String host = hosts.stream().filter(h -> row.threadName().startsWith(h + "-")).findFirst().orElse(null);
            String[] f = value.split("/", -1);
            if (host == null || f.length < 5) {
                return;
            }
            try {
                long t = Long.parseLong(f[0]);
                got.computeIfAbsent(host, h -> new java.util.TreeMap<>()).putIfAbsent(t, new Point(t,
                        Double.parseDouble(f[1]), -1,
                        f[2].isEmpty() ? Double.NaN : Double.parseDouble(f[2]), f[3].isEmpty() ? Double.NaN
                                : Double.parseDouble(f[3])));
                cpus.putIfAbsent(host, Integer.parseInt(f[4]));
            } catch (NumberFormatException e) {
                // not a reading
            }
        });
        synchronized (this) {
            for (Map.Entry<String, java.util.TreeMap<Long, Point>> e : got.entrySet()) {
                Series s = remote.computeIfAbsent(e.getKey(), h -> new Series("engine " + h, cpus.get(h), true));
                long last = s.lastReading();
                e.getValue().values().stream().filter(pt -> pt.t() > last).forEach(s.points::add);
            }
        }
    }

    /** Busy share of the machine's CPUs from {@code a} to {@code b}, in percent. */
    public double machineBusyPct(long a, long b) {
        Series m = new Series("machine", Runtime.getRuntime().availableProcessors());
        m.points.addAll(machine);
        Usage u = m.usage(a, b);
        // /proc/stat ticks and wall time are read a moment apart: a saturated machine can read a little above 100%
        return u == null || b <= a ? Double.NaN : Math.min(100, 100.0 * u.cpuMs() / ((b - a) * (double) m.cpus()));
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (server != null) {
            server.close();
        }
    }
}
