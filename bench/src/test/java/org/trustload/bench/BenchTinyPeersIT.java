package org.trustload.bench;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The other half of {@link BenchTinyIT}: these benches at their tiny scale, in a JVM of their own beside it
 * (bench/pom.xml). The pki and login benches start labs in the default socket folder: they stay in one class, one
 * after the other.
 *
 * <p>CI budget: ~2.5 min: five benches, each its own JVMs and servers (labs, nginx, MariaDB, slapd).
 */
class BenchTinyPeersIT {

    /** The benches this class runs. */
    static final List<String> HERE = List.of("pki", "login", "gmssl", "cost", "reference", "faults");

    @TestFactory
    Stream<DynamicTest> everyBenchRunsAtTinyScale() {
        return BenchTinyIT.tiny(HERE);
    }
}
