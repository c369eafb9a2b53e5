package org.trustload.jmeter.slo;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.ReentrantLock;
import org.trustload.common.Percentiles;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.threads.JMeterContextService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.jmeter.common.EndedSampleListener;
import org.trustload.slo.Objective;

/**
 * SLO Stop listener: checks a service-level objective ({@code p99<=500ms,errors<=1%}) once a second
 * over the samples of the last {@link #getWindowSeconds()} seconds, and when the objective has been
 * broken for {@link #getBreakSeconds()} seconds in a row it says which rule broke (jmeter.log and the
 * console: {@value #BROKEN_LINE} ...) and stops the test. The same rules as {@code ./trustload size --slo}
 * ({@link Objective}); percentiles by the JMeter dashboard's method (commons-math3, LEGACY estimator).
 *
 * <p>Distributed mode: deliberately not {@code Remoteable}, so it runs on every engine, checks the
 * samples of that engine (engines carry the same load, so they break together) and stops that engine's
 * test, as JMeter's own "stop test" on error does. One instance serves all threads ({@link NoThreadClone}).
 * Sub-results are not counted (JMeter hands listeners the parent sample).
 */
public class SloStop extends EndedSampleListener {

    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(SloStop.class);
    /** What the console and jmeter.log say when the objective broke (the harness looks for it). */
    public static final String BROKEN_LINE = "TrustLoad SLO broken";

    // TestBean properties (names are stored in plans: keep them)
    private String objective = "p99<=500ms,errors<=1%";
    private long windowSeconds = 10;
    private long breakSeconds = 10;
    private long minSamples = 20;
    private String action = "stop";

    // run state
    private transient Objective rules;
    private transient Deque<Second> seconds;
    private transient ReentrantLock lock;
    private transient volatile long brokenSince;
    private transient volatile boolean stopped;
    private transient long lastCheck;
    private transient String lastBreach;

    /** The samples of one wall-clock second. */
    private static final class Second {
        final long second;
        long[] elapsed = new long[16];
        int count;
        int errors;

        Second(long second) {
            this.second = second;
        }

        void add(long ms, boolean ok) {
            if (count == elapsed.length) {
                elapsed = Arrays.copyOf(elapsed, count * 2);
            }
            elapsed[count++] = ms;
            if (!ok) {
                errors++;
            }
        }
    }

    @Override
    public void testStarted() {
        seconds = new ArrayDeque<>();
        lock = new ReentrantLock();
        brokenSince = 0;
        stopped = false;
        lastCheck = 0;
        lastBreach = "";
        try {
            Objective all = Objective.parse(objective);
            rules = all.withoutServerRules();
            if (rules == null || rules.rules().size() < all.rules().size()) {
                log.warn("SLO Stop {}: server.cpu rules are checked by ./trustload size (it watches the server)"
                        + " and outage rules by ./trustload run --slo (from the whole results file), not here",
                        getName());
            }
        } catch (IllegalArgumentException e) {
            rules = null;
            String msg = "TrustLoad configuration error: SLO Stop '" + getName()
                    + "', property objective: " + e.getMessage();
            log.error(msg);
            System.out.println(msg);
            StandardJMeterEngine.stopEngineNow();
        }
    }

    @Override
    public void sampleOccurred(SampleEvent e) {
        Objective r = rules;
        if (r == null || stopped) {
            return;
        }
        SampleResult s = e.getResult();
        long now = System.currentTimeMillis();
        long sec = s.getEndTime() / 1000;
        lock.lock();
        try {
            Second last = seconds.peekLast();
            if (last == null || last.second < sec) {
                last = new Second(sec);
                seconds.addLast(last);
            } else if (last.second > sec) { // a late sample: put it in its own second if still held
                for (Second x : seconds) {
                    if (x.second == sec) {
                        last = x;
                        break;
                    }
                }
            }
            last.add(s.getTime(), s.isSuccessful());
            if (now - lastCheck < 1000) {
                return;
            }
            lastCheck = now;
            long oldest = now / 1000 - Math.max(1, windowSeconds);
            while (!seconds.isEmpty() && seconds.peekFirst().second < oldest) {
                seconds.removeFirst();
            }
            check(r, now);
        } finally {
            lock.unlock();
        }
    }

    /** Evaluates the window; under the lock. */
    private void check(Objective r, long now) {
        Window w = new Window(seconds);
        if (w.samples() < Math.max(1, minSamples)) {
            return;
        }
        List<String> broken = r.broken(w);
        if (broken.isEmpty()) {
            if (brokenSince != 0) {
                log.info("SLO Stop {}: objective met again", getName());
            }
            brokenSince = 0;
            return;
        }
        String breach = String.join(", ", broken);
        if (brokenSince == 0) {
            brokenSince = now;
            log.info("SLO Stop {}: objective broken ({}) over the last {} s; stopping after {} s of it", getName(),
                    breach,
                    windowSeconds, breakSeconds);
        }
        lastBreach = breach;
        if (now - brokenSince >= breakSeconds * 1000 && !stopped) {
            stopped = true;
            String line = String.format(Locale.ROOT,
                    "%s: %s (objective %s, broken for %d s, %d samples in the last %d s)%s at %d",
                    BROKEN_LINE, breach, r, (now - brokenSince) / 1000, w.samples(), windowSeconds,
                    "log".equals(action) ? "" : "; stopping the test", now);
            log.warn(line);
            System.out.println(line);
            if (!"log".equals(action)) {
                StandardJMeterEngine engine = JMeterContextService.getContext().getEngine();
                if ("stop-now".equals(action)) {
                    if (engine != null) {
                        engine.stopTest(true);
                    } else {
                        StandardJMeterEngine.stopEngineNow();
                    }
                } else if (engine != null) {
                    engine.askThreadsToStop();
                } else {
                    StandardJMeterEngine.stopEngine();
                }
            }
        }
    }

    /** The samples of the window, with the dashboard's percentiles. */
    private static final class Window implements Objective.Measured {
        private final double[] sorted;
        private final long errors;
        private double sum;

        Window(Deque<Second> seconds) {
            int n = 0;
            long err = 0;
            for (Second s : seconds) {
                n += s.count;
                err += s.errors;
            }
            sorted = new double[n];
            int i = 0;
            for (Second s : seconds) {
                for (int j = 0; j < s.count; j++) {
                    sorted[i++] = s.elapsed[j];
                    sum += s.elapsed[j];
                }
            }
            Arrays.sort(sorted);
            errors = err;
        }

        @Override
        public long samples() {
            return sorted.length;
        }

        @Override
        public long errors() {
            return errors;
        }

        @Override
        public double percentile(double p) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return Percentiles.ofSorted(sorted).get(p);
        }

        @Override
        public double mean() {
            return sorted.length == 0 ? Double.NaN : sum / sorted.length;
        }

        @Override
        public double max() {
            return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
        }

        @Override
        public double serverCpuPct() {
            return Double.NaN;
        }
    }

    /** The rules broken when the test was stopped, or empty (tests). */
    String lastBreach() {
        return lastBreach;
    }

    boolean hasStopped() {
        return stopped;
    }

    @Override
    public void testEnded() {
        if (brokenSince != 0 && !stopped) {
            log.info("SLO Stop {}: the test ended while the objective was broken ({})", getName(), lastBreach);
        }
        seconds = null;
    }

    public String getObjective() {
        return objective;
    }

    public void setObjective(String objective) {
        this.objective = objective;
    }

    public long getWindowSeconds() {
        return windowSeconds;
    }

    public void setWindowSeconds(long windowSeconds) {
        this.windowSeconds = windowSeconds;
    }

    public long getBreakSeconds() {
        return breakSeconds;
    }

    public void setBreakSeconds(long breakSeconds) {
        this.breakSeconds = breakSeconds;
    }

    public long getMinSamples() {
        return minSamples;
    }

    public void setMinSamples(long minSamples) {
        this.minSamples = minSamples;
    }

    public String getAction() {
        return action;
    }

    public void setAction(String action) {
        this.action = action;
    }
}
