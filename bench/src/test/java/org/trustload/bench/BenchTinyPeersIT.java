package org.trustload.bench;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The other half of {@link BenchTinyIT}: these benches at their tiny scale, in a JVM of their own beside it
 * (bench/pom.xml).
 *
 * <p>CI budget: ~2 min: five benches, each its own JVMs and servers (labs, nginx, MariaDB, slapd, the Tongsuo peer).
 */
class BenchTinyPeersIT {

    /** The benches this class runs. */
    static final List<String> HERE = List.of("gmssl", "tongsuo", "cost", "reference", "jvmstats");

    @TestFactory
    Stream<DynamicTest> everyBenchRunsAtTinyScale() {
        return BenchTinyIT.tiny(HERE);
    }
}
