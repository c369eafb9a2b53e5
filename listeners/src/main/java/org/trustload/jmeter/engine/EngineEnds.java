package org.trustload.jmeter.engine;

import org.apache.jmeter.samplers.Remoteable;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;

/**
 * Tells the harness when each remote engine has ended its test: {@code ./trustload run|size --remote} adds it to the
 * plan it runs. Being {@link Remoteable}, it stays on the controller (one copy per engine) and JMeter calls
 * {@link #testEnded(String)} there through the engine's RMI callback; it prints {@value #ENDED} and the engine's
 * {@code host:port} on the controller's console, which the harness reads as it runs. No GUI: users never add it.
 */
public class EngineEnds extends AbstractTestElement implements TestStateListener, Remoteable {

    private static final long serialVersionUID = 1L;

    /** The console line's start; the engine's {@code host:port} (as given to {@code -R}) follows. */
    public static final String ENDED = "TRUSTLOAD-ENGINE ENDED";

    @Override
    public void testStarted() {
        // only the engines' ends matter
    }

    @Override
    public void testStarted(String host) {
        // only the engines' ends matter
    }

    @Override
    public void testEnded() {
        // a local run: no engine
    }

    @Override
    public void testEnded(String host) {
        System.out.println(ENDED + " " + host);
        System.out.flush();
    }
}
