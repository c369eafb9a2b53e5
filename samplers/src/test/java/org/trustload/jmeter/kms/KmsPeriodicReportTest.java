package org.trustload.jmeter.kms;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;

/** The listener writes the reference tool's blocks with a real minimum and the right error counters. */
class KmsPeriodicReportTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void jmeter() {
        JMeterTestSupportAccess.init();
    }

    @Test
    void periodAndFinalBlocksCountByCategory() throws Exception {
        KmsPeriodicReport report = new KmsPeriodicReport();
        Path file = dir.resolve("report.log");
        report.setOutputFile(file.toString());
        report.setPeriod("0.2");
        report.testStarted();
        add(report, 12, true, "200");
        add(report, 7, true, "200");
        add(report, 30, false, "KMS.Timeout");
        add(report, 9, false, "KMS.LimitExceeded");
        add(report, 11, false, "KMS.ClientError");
        add(report, 10, false, "KMS.VerifyFailed");
        // the first period block is written by the report's timer thread: wait for it (bounded), not for a
        // fixed time - on a busy machine the timer can run late
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!(Files.exists(file) && Files.readString(file).contains("----------------- Time_1: ["))
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        report.testEnded();
        String text = Files.readString(file);
        assertThat(text).contains("----------------- Time_1: [").contains("----------------- Statistics: [");
        String last = text.substring(text.lastIndexOf("Statistics"));
        assertThat(last).contains("RequestCount: 6\tResponseCount: 6")
                .contains("MaxOnceTimeCost: 30 ms\tMinOnceTimeCost: 7 ms\tAvgOnceTimeCost: 13 ms")
                .contains("ClientErrorCount: 2\tLimitExceededErrorCount: 1\tTimeoutErrorCount: 1")
                .contains("KMS.ClientError=1").contains("KMS.VerifyFailed=1")
                // the dashboard's percentiles (LEGACY): 7 9 10 11 12 30 -> p50 between the 3rd and 4th value
                .contains("P50: 10.50 ms\tP90: 30.00 ms\tP95: 30.00 ms\tP99: 30.00 ms\t(6 responses, whole run)");
    }

    private static void add(KmsPeriodicReport r, long ms, boolean ok, String code) {
        SampleResult s = SampleResult.createTestSample(ms);
        s.setSampleLabel("encrypt");
        s.setSuccessful(ok);
        s.setResponseCode(code);
        r.sampleOccurred(new SampleEvent(s, "tg"));
    }
}
