package org.trustload.jmeter.jvmstats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.PostThreadGroup;
import org.apache.jmeter.threads.SetupThreadGroup;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jmeter.visualizers.Visualizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.jvmstats.SourceConfig;
import org.trustload.jvmstats.StatsException;
import org.trustload.jvmstats.StatsSnapshot;
import org.trustload.jvmstats.StatsSource;
import org.trustload.jvmstats.StatsSources;
import org.trustload.jvmstats.StatsSummary;

/**
 * JVM Stats listener: polls a {@link StatsSource} (this JVM, a JVM over JMX, a local JVM or process by PID)
 * once per interval, puts the latest values into JMeter variables that {@code sample_variables} writes into
 * the results, and writes {@code <summaryFile>.txt/.json} at test end. Neither {@code Remoteable} (it runs on
 * every engine; a separate target is polled once) nor a {@code SampleListener} (JMeter's per-sample bean
 * preparation cost 3x the throughput): why and how, docs/elements/jvm-stats.md.
 */
public class JvmStats extends AbstractTestElement
        implements TestBean, Visualizer, TestStateListener, ThreadListener, NoThreadClone {

    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(JvmStats.class);

    /** Engine (host:port as the controller names it) that polls remote targets in distributed mode. */
    public static final String POLLER_PROPERTY = "trustload.jvmstats.remote_poller";
    static final String SELF = "self";
    /** Directory for relative summary files (the launcher sets it to the run's results folder). */
    public static final String RESULTS_DIR_PROPERTY = "trustload.results.dir";

    /** Variable name suffixes, in the order of {@link #values(StatsSnapshot, StatsSnapshot)}. */
    public static final List<String> VARIABLES = List.of("cpu_ms", "cpu_pct", "heap_used_mb", "gc_count",
            "gc_time_ms", "ygc", "fgc", "rss_mb", "threads");

    // TestBean properties (names are stored in plans: keep them)
    private String source = "self";
    private String target = "";
    private String username = "";
    private String password = "";
    private long intervalMs = 1000;
    private long connectTimeoutMs = 5000;
    private long callTimeoutMs = 5000;
    private String variablePrefix = "jvm";
    private String summaryFile = "jvm-stats-summary";

    // run state, never serialized
    private transient volatile String[] names;
    private transient volatile String[] current;
    private transient volatile StatsSnapshot first;
    private transient volatile StatsSnapshot last;
    private transient volatile String note;
    private transient StatsSource stats;
    private transient ScheduledExecutorService poller;
    private transient LongAdder requests;
    private transient String host;
    private transient String lastError;
    /** Figures at the start and end of the measured thread groups (setUp/tearDown excluded). */
    private transient volatile StatsSnapshot mainStart;
    private transient volatile StatsSnapshot mainEnd;
    private transient AtomicInteger mainThreads;
    private transient volatile boolean sawSetupOrTeardown;
    /** CPU this element's polls used in this JVM, ns, and its value at {@link #mainStart} / {@link #mainEnd}. */
    private transient LongAdder ownCpuNs;
    private transient volatile long ownCpuAtMainStart;
    private transient volatile long ownCpuAtMainEnd;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The names this element added to {@code sample_variables}, removed again at test end. */
    private transient List<String> addedColumns;
    /** Where each poll is also written when {@code influx.url} is set; null otherwise. */
    private transient volatile JvmStatsInflux influx;

    @Override
    public void testStarted() {
        testStarted(null);
    }

    @Override
    public void testStarted(String engineHost) {
        host = engineHost;
        requests = new LongAdder();
        note = "";
        first = null;
        last = null;
        lastError = null;
        mainStart = null;
        mainEnd = null;
        mainThreads = new AtomicInteger();
        sawSetupOrTeardown = false;
        ownCpuNs = new LongAdder();
        String prefix = variablePrefix == null || variablePrefix.isBlank() ? "jvm" : variablePrefix.trim();
        String[] n = new String[VARIABLES.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = prefix + "_" + VARIABLES.get(i);
        }
        names = n;
        addedColumns = addSampleVariables(n);
        current = empty();
        String kind = source == null ? "" : source.trim();
        String pollerEngine = JMeterUtils.getPropDefault(POLLER_PROPERTY, "");
        // decided before opening, so engines that do not poll a remote target never connect to it
        if (!shouldPoll(SELF.equals(kind), engineHost, pollerEngine)) {
            note = "not polled on engine " + engineHost + ": " + kind + " '" + target
                    + "' is a separate target, polled only by the engine "
                    + POLLER_PROPERTY + " names ('" + pollerEngine + "')";
            if (pollerEngine.isBlank()) {
                log.warn("JVM Stats {}: {}; no engine polls it: run the controller with -G{}=HOST:PORT of one engine",
                        getName(), note, POLLER_PROPERTY);
            } else {
                log.info("JVM Stats {}: {}", getName(), note);
            }
            return;
        }
        try {
            stats = StatsSources.open(kind,
                    new SourceConfig(target, username, password, connectTimeoutMs, callTimeoutMs));
        } catch (StatsException | IllegalArgumentException e) {
            note = "cannot watch " + source + " '" + target + "': " + e.getMessage();
            log.error("JVM Stats {}: {}", getName(), note);
            return;
        }
        if (engineHost != null && !SELF.equals(kind)) {
            note = "distributed run: requests counted on this engine (" + engineHost + ") only; CPU per request of the "
                    + "whole run = CPU used / all real samples in the results file";
        }
        influx = JvmStatsInflux.open(getName(), kind, stats.describe(), prefix, engineHost);
        pollOnce();
        long every = Math.max(50, intervalMs);
        poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "trustload-jvmstats " + n[0]);
            t.setDaemon(true);
            return t;
        });
        poller.scheduleAtFixedRate(this::pollOnce, every, every, TimeUnit.MILLISECONDS);
        log.info("JVM Stats {}: polling {} every {} ms into variables {}_*", getName(),
                stats.describe(), every, prefix);
    }

    /**
     * Whether this JVM polls the source. Load-generator sources: always. Separate targets: always when
     * not distributed ({@code engineHost == null}); on an engine only when it is the named poller, so a
     * target is polled once however many engines run.
     */
    static boolean shouldPoll(boolean localToLoadGenerator, String engineHost, String poller) {
        return localToLoadGenerator || engineHost == null || engineHost.equals(poller.trim());
    }

    private synchronized void pollOnce() {
        StatsSource s = stats;
        if (s == null) {
            return;
        }
        long cpu0 = threadCpuNs();
        try {
            StatsSnapshot snap = s.poll();
            StatsSnapshot prev = last;
            last = snap;
            if (first == null) {
                first = snap; // the start figures are the first successful read
            }
            current = values(first, prev, snap);
            JvmStatsInflux i = influx;
            if (i != null) {
                i.write(snap.epochMillis(), current); // queued: the poll never waits for InfluxDB
            }
            if (lastError != null) {
                log.info("JVM Stats {}: {} readable again", getName(), s.describe());
                lastError = null;
            }
        } catch (StatsException e) {
            if (e.isGone()) {
                note = (note.isEmpty() ? "" : note + "; ") + "target disappeared at " + java.time.Instant.now()
                        + ": " + e.getMessage()
                        + " (figures are up to the last successful poll)";
                log.warn("JVM Stats {}: {}", getName(), note);
                current = empty();
                stopPolling();
            } else if (!e.getMessage().equals(lastError)) {
                lastError = e.getMessage();
                log.warn("JVM Stats {}: poll failed: {}", getName(), lastError);
            }
        } catch (RuntimeException e) {
            log.warn("JVM Stats {}: poll failed", getName(), e);
        } finally {
            long cpu1 = threadCpuNs();
            if (cpu0 >= 0 && cpu1 >= cpu0) {
                ownCpuNs.add(cpu1 - cpu0);
            }
        }
    }

    private static long threadCpuNs() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    /**
     * Adds {@code names} to the JMeter property {@code sample_variables} (and re-reads it into
     * {@link SampleEvent}), so the results carry this element's columns without any properties file.
     * This runs in {@code testStarted}, before the results file of {@code -l} writes its header (JMeter
     * adds that collector after every element of the plan). The controller of a distributed run must
     * list the names itself (it does not run this element): {@code -Jsample_variables=…}.
     */
    static List<String> addSampleVariables(String[] names) {
        synchronized (SampleEvent.class) {
            LinkedHashSet<String> all = sampleVariables();
            List<String> added = java.util.Arrays.stream(names).filter(all::add).toList();
            if (!added.isEmpty()) {
                setSampleVariables(all);
            }
            return added;
        }
    }

    /**
     * Removes {@code names} from {@code sample_variables} again, so that in a GUI session the next plan
     * without JVM Stats gets no such columns. The results rows are written by then (the test is over), and
     * the report reads its columns from the results file's header.
     */
    static void removeSampleVariables(List<String> names) {
        synchronized (SampleEvent.class) {
            LinkedHashSet<String> all = sampleVariables();
            if (all.removeAll(names)) {
                setSampleVariables(all);
            }
        }
    }

    private static LinkedHashSet<String> sampleVariables() {
        LinkedHashSet<String> all = new LinkedHashSet<>();
        for (String v : JMeterUtils.getPropDefault(SampleEvent.SAMPLE_VARIABLES, "").split(",")) {
            if (!v.isBlank()) {
                all.add(v.trim());
            }
        }
        return all;
    }

    private static void setSampleVariables(LinkedHashSet<String> all) {
        JMeterUtils.setProperty(SampleEvent.SAMPLE_VARIABLES, String.join(",", all));
        SampleEvent.initSampleVariables();
    }

    private String[] empty() {
        String[] e = new String[VARIABLES.size()];
        java.util.Arrays.fill(e, "");
        return e;
    }

    /**
     * The variable values for a snapshot. GC counts and times are since {@code base} (the test's first
     * read), so the graphs start at 0 instead of at the JVM's totals; {@code prev} gives the CPU % since
     * the previous poll.
     */
    static String[] values(StatsSnapshot base, StatsSnapshot prev, StatsSnapshot s) {
        double pct = Double.NaN;
        if (prev != null && s.epochMillis() > prev.epochMillis()) {
            pct = 100.0 * (s.cpuMs() - prev.cpuMs()) / (s.epochMillis() - prev.epochMillis());
        }
        return new String[] {
            whole(s.cpuMs()), one(pct), one(s.heapUsedBytes() / 1048576.0), count(since(base.gcCount(), s.gcCount())),
            one(s.gcTimeMs() - base.gcTimeMs()), count(since(base.youngGcCount(), s.youngGcCount())),
            count(since(base.fullGcCount(), s.fullGcCount())),
            s.rssBytes() < 0 ? "" : one(s.rssBytes() / 1048576.0), count(s.threads()),
        };
    }

    private static long since(long base, long now) {
        return base < 0 || now < 0 ? -1 : now - base;
    }

    private static String whole(double v) {
        return Double.isNaN(v) ? "" : Long.toString(Math.round(v));
    }

    private static String one(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String count(long v) {
        return v < 0 ? "" : Long.toString(v);
    }

    private void stopPolling() {
        ScheduledExecutorService p = poller;
        if (p != null) {
            p.shutdown();
        }
        StatsSource s = stats;
        stats = null;
        if (s != null) {
            s.close();
        }
    }

    /** Gives the calling thread its live variables (once per thread). */
    @Override
    public void threadStarted() {
        String[] n = names;
        LongAdder r = requests;
        if (n == null || r == null) {
            return;
        }
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars == null) {
            return;
        }
        boolean measured = measured(JMeterContextService.getContext().getThreadGroup());
        if (measured) {
            if (mainThreads.getAndIncrement() == 0 && mainStart == null) {
                markMainStart();
            }
        } else {
            sawSetupOrTeardown = true;
        }
        for (int i = 0; i < n.length; i++) {
            // setUp/tearDown threads get the values but are not counted as requests
            vars.putObject(n[i], new LiveValue(this, i, i == 0 && measured ? r : null));
        }
    }

    /** Whether a thread group's samples are the measured load: not a setUp or tearDown group. */
    static boolean measured(AbstractThreadGroup group) {
        return !(group instanceof SetupThreadGroup || group instanceof PostThreadGroup);
    }

    private synchronized void markMainStart() {
        if (mainStart == null && stats != null) {
            pollOnce();
            mainStart = last;
            ownCpuAtMainStart = ownCpuNs.sum();
        }
    }

    private synchronized void markMainEnd() {
        if (stats != null) {
            pollOnce();
        }
        mainEnd = last;
        ownCpuAtMainEnd = ownCpuNs.sum();
    }

    @Override
    public void threadFinished() {
        if (names == null || mainThreads == null || !measured(JMeterContextService.getContext().getThreadGroup())) {
            return;
        }
        if (mainThreads.decrementAndGet() == 0 && mainStart != null) {
            markMainEnd(); // a later measured group moves it again
        }
    }

    /**
     * A variable's value that is always the latest poll. The first variable of each thread also counts
     * requests: {@code sample_variables} reads it when JMeter builds a sample's event, and the thread's
     * previous result is then that sample. A transaction controller's row comes with the same previous
     * result (its last child, already counted), so transaction rows are not counted.
     */
    static final class LiveValue {
        private final JvmStats owner;
        private final int index;
        private final LongAdder counter;
        private SampleResult counted;

        LiveValue(JvmStats owner, int index, LongAdder counter) {
            this.owner = owner;
            this.index = index;
            this.counter = counter;
        }

        @Override
        public String toString() {
            if (counter != null) {
                SampleResult prev = JMeterContextService.getContext().getPreviousResult();
                if (prev != null && prev != counted) {
                    counted = prev;
                    counter.increment();
                }
            }
            String[] v = owner.current;
            return v == null ? "" : v[index];
        }
    }

    @Override
    public void testEnded() {
        testEnded(host);
    }

    @Override
    public void testEnded(String engineHost) {
        String target0;
        synchronized (this) {
            target0 = stats != null ? stats.describe() : source + " " + target;
            if (stats != null) {
                pollOnce();
            }
            if (poller != null) {
                poller.shutdownNow();
                poller = null;
            }
            if (stats != null) {
                stats.close();
                stats = null;
            }
        }
        JvmStatsInflux i = influx;
        influx = null;
        if (i != null) {
            i.close(); // sends what is left, bounded by its timeout
        }
        if (addedColumns != null) {
            removeSampleVariables(addedColumns);
            addedColumns = null;
        }
        if (first == null && note.startsWith("not polled")) {
            return; // another engine writes this target's summary
        }
        StatsSummary summary = summary(target0);
        Path base = summaryBase(engineHost);
        try {
            if (base.getParent() != null) {
                Files.createDirectories(base.getParent());
            }
            Files.writeString(Path.of(base + ".txt"), summary.toText(), StandardCharsets.UTF_8);
            Files.writeString(Path.of(base + ".json"), summary.toJson(), StandardCharsets.UTF_8);
            log.info("JVM Stats {}: summary written to {}.txt and .json", getName(), base);
        } catch (IOException e) {
            log.error("JVM Stats {}: cannot write summary {}: {}", getName(), base, e.toString());
        }
    }

    /**
     * The summary over the measured thread groups: from the read when their first thread started to the
     * read when their last one ended (the whole test without setUp/tearDown groups or if they never
     * started); for {@code self}, without the CPU of this element's own polls.
     */
    private StatsSummary summary(String target0) {
        boolean window = mainStart != null;
        StatsSnapshot from = window ? mainStart : first;
        StatsSnapshot to = window && mainEnd != null ? mainEnd : last;
        String n = note;
        if (window && sawSetupOrTeardown) {
            n = (n.isEmpty() ? "" : n + "; ") + "figures from the start to the end of the measured thread groups"
                    + " (setUp/tearDown excluded)";
        }
        double ownMs = Double.NaN;
        if (SELF.equals(source == null ? "" : source.trim()) && ownCpuNs != null) {
            long end = window && mainEnd != null ? ownCpuAtMainEnd : ownCpuNs.sum();
            ownMs = (end - (window ? ownCpuAtMainStart : 0)) / 1e6;
        }
        return new StatsSummary(target0, from, to, requests == null ? 0 : requests.sum(), n, ownMs);
    }

    /**
     * Summary path without extension: relative names go to the results directory; engines add their name for
     * engine-local sources.
     */
    private Path summaryBase(String engineHost) {
        String f = summaryFile == null || summaryFile.isBlank() ? "jvm-stats-summary" : summaryFile.trim();
        if (f.endsWith(".txt") || f.endsWith(".json")) {
            f = f.substring(0, f.lastIndexOf('.'));
        }
        if (engineHost != null && first != null && SELF.equals(source.trim())) {
            f = f + "-" + engineHost.replaceAll("[^A-Za-z0-9._-]", "_");
        }
        Path p = Path.of(f);
        String dir = JMeterUtils.getPropDefault(RESULTS_DIR_PROPERTY, "");
        return p.isAbsolute() || dir.isBlank() ? p : Path.of(dir).resolve(p);
    }

    @Override
    public void add(SampleResult sample) {
        // no visual display: values go into the results through sample_variables
    }

    @Override
    public boolean isStats() {
        return false;
    }

    /** The latest values, in {@link #VARIABLES} order (for tests and the bench). */
    String[] currentValues() {
        return current;
    }

    public String getSource() {
        return source;
    }

    public void setSource(String source) {
        this.source = source;
    }

    public String getTarget() {
        return target;
    }

    public void setTarget(String target) {
        this.target = target;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public long getIntervalMs() {
        return intervalMs;
    }

    public void setIntervalMs(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    public long getConnectTimeoutMs() {
        return connectTimeoutMs;
    }

    public void setConnectTimeoutMs(long connectTimeoutMs) {
        this.connectTimeoutMs = connectTimeoutMs;
    }

    public long getCallTimeoutMs() {
        return callTimeoutMs;
    }

    public void setCallTimeoutMs(long callTimeoutMs) {
        this.callTimeoutMs = callTimeoutMs;
    }

    public String getVariablePrefix() {
        return variablePrefix;
    }

    public void setVariablePrefix(String variablePrefix) {
        this.variablePrefix = variablePrefix;
    }

    public String getSummaryFile() {
        return summaryFile;
    }

    public void setSummaryFile(String summaryFile) {
        this.summaryFile = summaryFile;
    }
}
