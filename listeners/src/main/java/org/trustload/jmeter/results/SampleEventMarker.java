package org.trustload.jmeter.results;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * Marks the rows of one sample event in the results file, so a reader tells a sample's sub-results from the
 * thread's next sample (JMeter's CSV links no row to its parent). Each thread's variable {@value #VARIABLE}
 * reads {@code T.N} (T the thread in this JVM, so threads stay apart without thread names; N counts up per
 * read). {@code ./trustload run} adds the element and lists the variable in {@code sample_variables}; users
 * never add it (no GUI). How: docs/harness.md, "Sub-results, known from the file".
 */
public class SampleEventMarker extends AbstractTestElement implements ThreadListener, NoThreadClone {
    private static final long serialVersionUID = 1L;

    /** The variable and results column; the harness reads it as {@code Jtl.EVENT_COLUMN} (same name). */
    public static final String VARIABLE = "trustload_event";

    private static final AtomicInteger THREADS = new AtomicInteger();

    /** A thread's counter: each read is a new value. Confined to its thread. */
    static final class Counter {
        private final String thread = THREADS.incrementAndGet() + ".";
        private long next;

        @Override
        public String toString() {
            return thread + ++next;
        }
    }

    @Override
    public void threadStarted() {
        JMeterContextService.getContext().getVariables().putObject(VARIABLE, new Counter());
    }

    @Override
    public void threadFinished() {
        // the thread's variables go with it
    }
}
