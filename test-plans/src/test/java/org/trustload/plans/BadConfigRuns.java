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
import org.trustload.harness.Jtl;

/**
 * What every run of a plan with a wrong setting must show (DESIGN section 2), checked the same way
 * for every protocol: at most one failed sample per thread, each with the expected code and message;
 * for a configuration error one ERROR line in jmeter.log naming element, property and file, also on
 * the console; for a network failure (property null) no such line.
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

    /**
     * @param samples  the run's top-level samples
     * @param property the property a configuration error names, or null for an ordinary failure
     * @param file     the file it names ({@code -} for none)
     */
    static void check(Path dir, List<Jtl.Sample> samples, int threads, String code, String message, String property,
            String file) throws Exception {
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
            assertThat(samples).as("a network failure is found by the first sample of each thread").isNotEmpty();
            assertThat(log).doesNotContain("TrustLoad configuration error");
            return;
        }
        List<String> lines = log.lines().filter(l -> l.contains("TrustLoad configuration error")).toList();
        assertThat(lines).as("one ERROR line for the configuration error, see " + dir.resolve("jmeter.log")).hasSize(1);
        assertThat(lines.get(0)).contains("ERROR").contains(message.substring(0, message.indexOf(':')))
                .contains("property " + property).contains("file " + file).contains(message);
        assertThat(Files.readString(dir.resolve("console.txt"))).contains("TrustLoad configuration error");
    }
}
