package org.trustload.jmeter.results;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * Marks the rows of one sample event in the results file, so a reader tells a sample's sub-results from
 * the thread's next sample (JMeter's CSV links no row to its parent, and their times overlap by a
 * millisecond or two). {@code ./trustload run} adds it to the plan it runs and lists {@value #VARIABLE} in
 * {@code sample_variables}; users never add it themselves (it has no GUI).
 *
 * <p>Each thread gets, once, the variable {@value #VARIABLE} whose value is a per-thread counter,
 * {@code T.N} (T numbers the thread in this JVM, N counts): {@code JMeterVariables.get} calls its
 * {@code toString()}, which counts up. T keeps values of different threads apart even in a results file
 * saved without thread names. JMeter builds one
 * {@code SampleEvent} per sample (and per Transaction Controller result) and reads the
 * {@code sample_variables} into it once; the CSV writer puts that one value on the sample's row and on
 * the rows of its sub-results. So the rows of one event share a number and the thread's next event has
 * another. No per-sample work beyond that {@code toString()}: no listener callback, no lock (the value
 * is read on the sample's own thread). Works on distributed engines, which send the values with each
 * event.
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
