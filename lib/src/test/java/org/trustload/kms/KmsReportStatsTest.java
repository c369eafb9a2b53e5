package org.trustload.kms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KmsReportStatsTest {

    @Test
    void periodPercentilesCoverThePeriodAndTheFinalOnesTheWholeRunFromEveryThread() throws Exception {
        KmsReportStats stats = new KmsReportStats();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            // thread t answers in t+1 ms, 1000 times: 8000 values, 1000 of each of 1..8
            long ms = t + 1;
            threads.add(new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    stats.add(ms, true, "200");
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        String first = stats.periodReport(stats.responses());
        assertThat(first).contains("(8000 responses, this period)").contains("P50: 4.50 ms").contains("P99: 8.00 ms");
        stats.add(100, true, "200");
        assertThat(stats.periodReport(stats.responses())).contains("P50: 100.00 ms")
                .contains("(1 responses, this period)");
        assertThat(stats.periodReport(stats.responses())).contains("(no responses, this period)");
        assertThat(stats.finalReport(stats.responses())).contains("(8001 responses, whole run)")
                .contains("P50: 5.00 ms");
    }

    @Test
    void memoryIsOneCountPerDistinctTimeNotOnePerResponse() throws Exception {
        KmsReportStats stats = new KmsReportStats();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 250_000; i++) {
                    stats.add(i % 100, true, "200"); // 0..99 ms
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(stats.periodReport(stats.responses())).contains("(1000000 responses, this period)")
                .contains("P50: 49.50 ms").contains("P99: 98.99 ms");
        assertThat(stats.distinctTimes()).isEqualTo(100);
        for (int i = 0; i < 1_000_000; i++) {
            stats.add(i % 100, true, "200");
        }
        assertThat(stats.periodReport(stats.responses())).contains("(1000000 responses, this period)");
        assertThat(stats.finalReport(stats.responses())).contains("(2000000 responses, whole run)");
        assertThat(stats.distinctTimes()).as("after twice the responses").isEqualTo(100);
    }
}
