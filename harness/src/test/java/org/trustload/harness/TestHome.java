package org.trustload.harness;

import org.trustload.harness.jmx.PlanTree;
import java.nio.file.Path;

/** What the tests read plans with: test-plans/, and a JMeter home of ApacheJMeter_config's bin/ (harness/pom.xml). */
public final class TestHome {

    public static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
    public static final Path PLANS = ROOT.resolve("test-plans");

    private TestHome() {
    }

    /** {@link PlanTree#init} with target/jmeter-home. */
    public static void init() {
        PlanTree.init(Path.of("target/jmeter-home").toAbsolutePath());
    }
}
