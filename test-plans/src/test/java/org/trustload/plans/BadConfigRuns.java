package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.results.Jtl;
import org.trustload.harness.run.Run;

/**
 * The checks every bad-configuration run shares (LDAP, TLCP, KMS, PKI): the exit status, at most one failed
 * sample per thread with the expected code and message, and for a configuration error exactly one
 * {@code TrustLoad configuration error} line naming property and file, on the console too.
 */
final class BadConfigRuns {
    private BadConfigRuns() {
    }

    /** A loopback port nothing listens on (just closed): connecting to it is refused. */
    static int refusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static String check(Run.Result result, Path dir, int threads, String code, String message, String property,
            String file, String logPart) throws Exception {
        return check(result, dir, threads, code, message, property, file, logPart, s -> true);
    }

    /**
     * @param property the property at fault, or null for an ordinary failure (refused port): exit 0,
     *     a failed sample per thread, no configuration-error line
     * @param logPart what the configuration-error line must contain besides property and file
     * @param counted the rows that are samples of their own (not e.g. a remote flow's step sub-results)
     * @return the configuration-error line, or null for an ordinary failure
     */
    static String check(Run.Result result, Path dir, int threads, String code, String message, String property,
            String file, String logPart, Predicate<Jtl.Sample> counted) throws Exception {
        // exit status (docs/results.md, "Exit status"): a configuration error is 3; a refused port is an ordinary error
        assertThat(result.status()).as(result.message() + ", see " + dir)
                .isEqualTo(property == null ? ExitStatus.OK : ExitStatus.CONFIG_ERROR);
        List<Jtl.Sample> samples = (Files.exists(dir.resolve("results.jtl")) ? Jtl.read(dir.resolve("results.jtl"))
                : List.<Jtl.Sample>of()).stream().filter(counted).toList();
        assertThat(samples.size()).as("at most one failed sample per thread, see " + dir).isLessThanOrEqualTo(threads);
        Map<String, Integer> perThread = new HashMap<>();
        for (Jtl.Sample s : samples) {
            assertThat(s.success()).isFalse();
            assertThat(s.responseCode()).isEqualTo(code);
            assertThat(s.responseMessage()).startsWith(message);
            perThread.merge(s.threadName(), 1, Integer::sum);
        }
        assertThat(perThread.values()).allMatch(n -> n == 1);
        String log = Files.readString(dir.resolve("jmeter.log"));
        if (property == null) {
            assertThat(samples).as("a refused port is found by the first sample of each thread").isNotEmpty();
            assertThat(log).doesNotContain("TrustLoad configuration error");
            return null;
        }
        List<String> lines = log.lines().filter(l -> l.contains("TrustLoad configuration error")).toList();
        assertThat(lines).as("one ERROR line for the configuration error, see " + dir.resolve("jmeter.log")).hasSize(1);
        assertThat(lines.get(0)).contains("ERROR").contains(logPart)
                .contains("property " + property).contains("file " + file);
        assertThat(Files.readString(dir.resolve("console.txt"))).contains("TrustLoad configuration error");
        return lines.get(0);
    }
}
