package org.trustload.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What every fixture's {@code assumeOrFailInCi()} does: a machine without the fixture's package skips the
 * calling test, except on CI ({@code CI=true}), where a missing package is a broken machine and fails it
 * instead of silently dropping coverage.
 */
final class Requirements {
    private Requirements() {
    }

    /**
     * Returns when {@code available}; otherwise fails the calling test on CI and skips it elsewhere, saying
     * {@code why}.
     */
    static void assumeOrFailInCi(boolean available, String why) {
        if (available) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            Assertions.fail(why + " and CI=true, so this is not skipped");
        }
        Assumptions.assumeTrue(false, why);
    }

    /** Whether {@code program} is an executable in a directory of {@code PATH}. */
    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(":")) {
            if (!d.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
