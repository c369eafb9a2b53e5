package org.trustload.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The run-queue wait of this JVM, read while more threads spin than there are CPUs. */
class RunQueueTest {

    @Test
    void theWaitOfThreadsThatEndedStaysInTheTotal() throws Exception {
        RunQueue q = new RunQueue(ProcessHandle.current().pid());
        Assumptions.assumeFalse(Double.isNaN(q.waitMs()), "no /proc/PID/task/TID/schedstat on this kernel");
        AtomicBoolean spin = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors() + 1; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (spin.get()) {
                    x++;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }, "run-queue-spin-" + i);
            t.start();
            threads.add(t);
        }
        double before;
        double start = q.waitMs();
        long deadline = System.nanoTime() + 60_000_000_000L;
        try {
            // more runnable threads than CPUs: some wait, until the total shows it (a condition, not a time)
            do {
                before = q.waitMs();
                Thread.onSpinWait();
            } while (before - start < 50 && System.nanoTime() < deadline);
        } finally {
            spin.set(false);
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(before - start).as("the spinning threads waited for a CPU").isGreaterThanOrEqualTo(50);
        assertThat(q.waitMs()).as("after they ended").isGreaterThanOrEqualTo(before);
    }
}
