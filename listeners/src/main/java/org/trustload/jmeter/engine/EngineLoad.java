package org.trustload.jmeter.engine;

import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.jvmstats.RunQueue;
import org.trustload.jvmstats.SelfSource;
import org.trustload.jvmstats.StatsException;
import org.trustload.jvmstats.StatsSnapshot;

/**
 * The CPU of a remote engine's JVM, for the summary's load-generator line and {@code size}'s client-bound
 * verdict: {@code ./trustload run|size --remote} adds it to the plan it runs and lists {@value #VARIABLE} in
 * {@code sample_variables}, so every sample row an engine sends carries the engine's latest reading, through
 * the channel the samples take anyway (nothing more to open on the engine's host).
 *
 * <p>Once a second a daemon thread reads this JVM ({@link SelfSource}, as JVM Stats' {@code self} source) and
 * keeps the reading as {@code epochMs/cpuMs/gcMs/waitMs/cpus}: the time of the reading, the JVM's CPU and GC
 * time since it started, its threads' run-queue wait ({@link RunQueue}; empty when unknown) and the CPUs it may
 * use. Each thread gets, once, a variable whose {@code toString()} returns that string: no work per sample
 * beyond reading a volatile field. The reading's own time travels with it, so the harness places each reading
 * exactly, however rarely samples come. No GUI: users never add it.
 */
public class EngineLoad extends AbstractTestElement implements TestStateListener, ThreadListener, NoThreadClone {

    private static final long serialVersionUID = 1L;

    /** The variable and results column; the harness reads it by the same name. */
    public static final String VARIABLE = "trustload_engine_load";

    // run state, never serialized (an engine receives this element serialized: set in testStarted)
    private transient volatile String reading;
    private transient ScheduledExecutorService poller;
    private transient SelfSource self;
    private transient RunQueue queue;
    private transient Object value;

    /** The variable's value: the latest reading. */
    private static final class Reading {
        private final EngineLoad owner;

        Reading(EngineLoad owner) {
            this.owner = owner;
        }

        @Override
        public String toString() {
            String r = owner.reading;
            return r == null ? "" : r;
        }
    }

    @Override
    public void testStarted() {
        testStarted(null);
    }

    @Override
    public synchronized void testStarted(String host) {
        reading = "";
        value = new Reading(this);
        queue = RunQueue.ofLoadGenerator(ProcessHandle.current().pid());
        try {
            self = new SelfSource();
        } catch (StatsException e) {
            return; // no readings: the harness reports the engine's CPU as unknown
        }
        poll();
        poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "trustload-engine-load");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleAtFixedRate(this::poll, 1000, 1000, TimeUnit.MILLISECONDS);
    }

    private void poll() {
        SelfSource s = self;
        if (s == null) {
            return;
        }
        try {
            StatsSnapshot snap = s.poll();
            reading = format(snap.epochMillis(), snap.cpuMs(), snap.gcTimeMs(), queue.waitMs(),
                    Runtime.getRuntime().availableProcessors());
        } catch (StatsException | RuntimeException e) {
            // keep the last reading
        }
    }

    static String format(long t, double cpuMs, double gcMs, double waitMs, int cpus) {
        return t + "/" + whole(cpuMs) + "/" + whole(gcMs) + "/" + whole(waitMs) + "/" + cpus;
    }

    private static String whole(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%d", Math.round(v));
    }

    @Override
    public void threadStarted() {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        Object v = value;
        if (vars != null && v != null) {
            vars.putObject(VARIABLE, v);
        }
    }

    @Override
    public void threadFinished() {
        // the thread's variables go with it
    }

    @Override
    public void testEnded() {
        testEnded(null);
    }

    @Override
    public synchronized void testEnded(String host) {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
        self = null;
    }
}
