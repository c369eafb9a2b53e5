package org.trustload.harness.sizing;

import org.trustload.harness.host.HostMonitor;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.slo.Objective;

/** Steps cut from a results file: per-engine steady windows, the samples SLO Stop interrupted left out. */
class StepsTest {

    /** Rows of one engine: 10 samples a second of 5 ms, for two steps of 4 s from {@code start}. */
    private static void engine(StringBuilder csv, String prefix, long start) {
        for (int step = 0; step < 2; step++) {
            for (int k = 0; k < 40; k++) {
                long t = start + step * 4000L + k * 100L;
                csv.append(t).append(",5,op,200,OK,").append(prefix).append(String.format("size-s%02d g 1-1", step))
                        .append(",true,,10\n");
            }
        }
    }

    @Test
    void enginesStartingApartAreMeasuredEachOverItsOwnWindow(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
                + "success,failureMessage,bytes\n");
        engine(csv, "127.0.0.1:1000-", 1_000_000);
        engine(csv, "127.0.0.1:2000-", 1_010_000); // started 10 s later: its steps do not overlap the first's
        Path jtl = Files.writeString(dir.resolve("results.jtl"), csv);
        try (HostMonitor w = new HostMonitor(null, 2, null)) {
            List<Step> steps = Steps.of("ramp-1", jtl, List.of(2.0, 4.0), Double.NaN, 4000, 1000,
                    Objective.parse("p99<=50ms"), w, "");
            assertThat(steps).hasSize(2);
            // 30 answers in each engine's 3 s steady window (10/s) on both engines
            assertThat(steps.get(0).achieved()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(1.5));
            assertThat(steps.get(0).samples()).isEqualTo(60);
            assertThat(steps.get(1).good()).isTrue();
        }
    }

    /**
     * Readings once a second: after the last step the server goes idle, and JMeter exits at once (no reading after
     * it). A window is measured at the rate of the readings within it, not interpolated across its ends.
     */
    @Test
    void aWindowIsMeasuredAtTheRateOfTheReadingsWithinIt() {
        HostMonitor.Series s = new HostMonitor.Series("pid 7", 1);
        s.points.add(new HostMonitor.Point(10_000, 5_000, -1, Double.NaN, 100));
        s.points.add(new HostMonitor.Point(11_000, 5_990, -1, Double.NaN, 110));
        s.points.add(new HostMonitor.Point(12_000, 6_980, -1, Double.NaN, 120));
        s.points.add(new HostMonitor.Point(13_000, 7_000, -1, Double.NaN, 120)); // idle after 12.02 s
        HostMonitor.Usage u = s.usage(10_600, 12_600);
        assertThat(u.cpuMs()).as("99% of one CPU over 2 s, not 84%")
                .isCloseTo(1980, org.assertj.core.data.Offset.offset(0.01));
        assertThat(u.waitMs()).isCloseTo(20, org.assertj.core.data.Offset.offset(0.01));
        assertThat(s.usage(13_100, 14_000)).as("after the process's last reading").isNull();
        assertThat(s.usage(11_100, 11_900).cpuMs()).as("no two readings within: interpolated").isCloseTo(792,
                org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void samplesEndingAfterSloStopActedAreLeftOut(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
                + "success,failureMessage,bytes\n");
        engine(csv, "", 1_000_000);
        csv.append("1004500,9,op,KMS.ClientError,-:AbortedException,size-s01 g 1-2,false,,0\n");
        Path jtl = Files.writeString(dir.resolve("results.jtl"), csv);
        try (HostMonitor w = new HostMonitor(null, 2, null)) {
            List<Step> steps = Steps.of("ramp-1", jtl, List.of(2.0, 4.0), Double.NaN, 4000, 1000,
                    Objective.parse("errors<=1%"), w,
                    "TrustLoad SLO broken: errors 5% > 1% (...); stopping the test at 1004505");
            assertThat(steps.get(1).errors()).as("the interrupted sample").isZero();
            assertThat(steps.get(1).stoppedBy()).as("the step the run stopped in").startsWith("TrustLoad SLO broken");
        }
    }
}
