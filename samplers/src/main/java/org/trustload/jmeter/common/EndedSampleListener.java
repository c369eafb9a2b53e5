package org.trustload.jmeter.common;

import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.visualizers.Visualizer;

/**
 * A listener element that sees every ended sample of its JVM through one instance ({@link NoThreadClone})
 * and draws nothing: it is a {@link Visualizer} only so that JMeter lists it in the Listeners menu (the
 * generated TestBean GUI never calls {@link #add}). Subclasses write {@link #sampleOccurred},
 * {@link #testStarted()} and {@link #testEnded()}; an engine's host makes no difference to them.
 */
public abstract class EndedSampleListener extends AbstractTestElement
        implements TestBean, SampleListener, TestStateListener, NoThreadClone, Visualizer {
    private static final long serialVersionUID = 1L;

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    @Override
    public void sampleStarted(SampleEvent e) {
        // only ended samples count
    }

    @Override
    public void sampleStopped(SampleEvent e) {
        // only ended samples count
    }

    @Override
    public void add(SampleResult sample) {
        // nothing to draw: samples arrive through sampleOccurred
    }

    @Override
    public boolean isStats() {
        return false;
    }
}
