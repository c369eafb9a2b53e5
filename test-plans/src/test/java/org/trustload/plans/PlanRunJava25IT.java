package org.trustload.plans;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.trustload.harness.JMeter;

/**
 * {@link PlanRunIT} again with JMeter and the lab on Java 25 ({@code -Dtrustload.java25=<a Java 25 home>}, which
 * {@code ci/test} passes; skipped, saying so, without it): the plans of {@value Plans#JAVA25_SET}, which together run
 * every element class and every plan family of the library ({@link Java25PlansTest}). It runs beside the other
 * classes; the test JVM and the harness stay on the build's Java ({@code ReadmeTourIT} runs {@code ./trustload} itself
 * on Java 25).
 *
 * <p>CI budget: ~2 min of class time (13 plans, two at a time, no dashboard): each element class must load and run on
 * Java 25.
 */
class PlanRunJava25IT extends PlanRunIT {

    private static final Path OUT = Plans.DIR.resolve("target/plan-runs-java25");
    private static final List<String> SET = Plans.planSet(Plans.DIR.resolve(Plans.JAVA25_SET));

    @BeforeAll
    static void needsJava25() {
        Assumptions.assumeTrue(Plans.java25().isPresent(),
                "no -Dtrustload.java25=<a Java 25 home> (ci/test passes one): the plans' Java 25 runs are skipped");
    }

    @Override
    JMeter jmeter() {
        JMeter quick = Plans.JMETER;
        Path java = Plans.java25().orElseThrow().resolve("bin/java");
        return new JMeter(quick.layout().withJava(java), quick.heap(), quick.jvmArgs());
    }

    /** No dashboard: JMeter's report generator is JMeter's, held to the summary on Java 17 ({@link PlanRunIT}). */
    @Override
    boolean dashboard() {
        return false;
    }

    @Override
    Path out() {
        return OUT;
    }

    @Override
    boolean runs(Plans.Plan plan) {
        return SET.contains(plan.id()) && Plans.selected(plan.id());
    }
}
