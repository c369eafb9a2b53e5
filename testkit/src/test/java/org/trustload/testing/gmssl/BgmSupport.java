package org.trustload.testing.gmssl;

import org.junit.jupiter.api.Assumptions;

/** What the tests of the optional {@code bgm} engine share. */
final class BgmSupport {
    private BgmSupport() {
    }

    /** bgmprovider 1.1.4 links against JDK internals that Java 22 removed: its tests run on 17 to 21 only. */
    static void assumeJava17To21() {
        Assumptions.assumeTrue(Runtime.version().feature() <= 21,
                "the bgm engine runs on Java 17 to 21 (bgmprovider 1.1.4 links against JDK internals removed in 22)");
    }
}
