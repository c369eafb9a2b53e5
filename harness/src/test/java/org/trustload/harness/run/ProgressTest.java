package org.trustload.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The launcher's progress line after each of JMeter's {@code summary +} lines (docs/harness.md, "Progress"). */
class ProgressTest {

    private static final String INTERVAL =
            "summary +    512 in 00:00:05 =  102.4/s Avg:     9 Min:     1 Max:    80 Err:     0 (0.00%) Active: 10"
                    + " Started: 10 Finished: 0";

    private static String feed(long scheduledSeconds, String... lines) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Supervisor.Progress p = new Supervisor.Progress(scheduledSeconds, new PrintStream(bytes, true,
                StandardCharsets.UTF_8), true);
        for (String l : lines) {
            p.line(l);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aScheduledPlanShowsElapsedAndTheTimeLeftOfItsSchedule() {
        String out = feed(300, "Starting standalone test @ 2026 Nov 24 20:00:00 UTC (1)", INTERVAL);
        assertThat(out).matches("(?s)trustload: \\d\\d:\\d\\d:\\d\\d elapsed, at most \\d\\d:\\d\\d:\\d\\d left of the"
                + " 00:05:00 scheduled, 512 samples in the last interval\\R");
    }

    @Test
    void aLoopCountPlanShowsElapsedAndSaysItEndsWithItsLoops() {
        assertThat(feed(0, "Starting distributed test with remote engines: [127.0.0.1:1099] @ x", INTERVAL))
                .contains(" elapsed (loop-count plan: ends when its loops are done), 512 samples in the last interval");
    }

    @Test
    void onlyJMetersIntervalLinesGiveAProgressLine() {
        assertThat(feed(60, "Creating summariser <summary>", "summary =    512 in 00:00:05 =  102.4/s Avg: 9"))
                .isEmpty();
    }
}
