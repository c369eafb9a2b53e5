package org.trustload.jmeter.slo;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;

/** The objective is judged over the window and acted on only once it has been broken long enough. */
class SloStopTest {

    private static SampleEvent sample(long elapsed, boolean ok) {
        SampleResult r = new SampleResult();
        long end = System.currentTimeMillis();
        r.setStampAndTime(end - elapsed, elapsed);
        r.setSuccessful(ok);
        return new SampleEvent(r, "tg");
    }

    private static SloStop listener(String objective, long breakSeconds) {
        SloStop l = new SloStop();
        l.setName("slo");
        l.setObjective(objective);
        l.setWindowSeconds(5);
        l.setBreakSeconds(breakSeconds);
        l.setMinSamples(5);
        l.setAction("log"); // no engine here: say it, do not stop
        l.testStarted();
        return l;
    }

    @Test
    void aMetObjectiveNeverBreaks() throws InterruptedException {
        SloStop l = listener("p99<=500ms,errors<=1%", 0);
        for (int i = 0; i < 30; i++) {
            l.sampleOccurred(sample(10, true));
            if (i % 10 == 0) {
                Thread.sleep(1100);
            }
        }
        assertThat(l.hasStopped()).isFalse();
    }

    @Test
    void saysWhichRuleBrokeOnceItHasBeenBrokenLongEnough() throws InterruptedException {
        SloStop l = listener("p99<=500ms,errors<=10%", 1);
        for (int i = 0; i < 10; i++) {
            l.sampleOccurred(sample(900, true));
        }
        assertThat(l.hasStopped()).as("the first check only starts the clock").isFalse();
        Thread.sleep(1100);
        l.sampleOccurred(sample(900, false));
        assertThat(l.hasStopped()).as("not yet broken for 1 s").isFalse();
        Thread.sleep(1100);
        l.sampleOccurred(sample(900, true));
        assertThat(l.hasStopped()).isTrue();
        assertThat(l.lastBreach()).startsWith("p99 900 ms > 500 ms");
    }

    @Test
    void tooFewSamplesAreNotJudged() throws InterruptedException {
        SloStop l = listener("errors<=1%", 0);
        l.sampleOccurred(sample(5, false));
        Thread.sleep(1100);
        l.sampleOccurred(sample(5, false));
        assertThat(l.hasStopped()).isFalse();
    }

    @Test
    void aBadObjectiveIsAConfigurationErrorNotAFlood() {
        SloStop l = new SloStop();
        l.setName("slo");
        l.setObjective("p99 under 5");
        l.testStarted();
        l.sampleOccurred(sample(5, true));
        assertThat(l.hasStopped()).isFalse();
    }
}
