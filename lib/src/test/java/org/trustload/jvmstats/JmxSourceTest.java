package org.trustload.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** JMX source: URL forms, timeouts, connection refused. */
class JmxSourceTest {

    @Test
    void aPortThatAcceptsButNeverAnswersTimesOut() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accept, never read or write
                    }
                } catch (Exception e) {
                    // closed at the end of the test
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> new JmxSource(
                    new SourceConfig("127.0.0.1:" + silent.getLocalPort(), "", "", 700, 700)))
                    .isInstanceOfSatisfying(StatsException.class, e -> assertThat(e.isGone()).isFalse())
                    .hasMessageContaining("timed out after 700 ms");
            assertThat((System.nanoTime() - t0) / 1e6).isLessThan(5000);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void connectionRefusedIsAClearError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertThatThrownBy(() -> new JmxSource(new SourceConfig("127.0.0.1:" + port, "", "", 2000, 2000)))
                .isInstanceOf(StatsException.class).hasMessageContaining("connect failed");
    }

    @Test
    void urlForms() throws Exception {
        assertThat(JmxSource.serviceUrl("127.0.0.1:9010").toString())
                .isEqualTo("service:jmx:rmi:///jndi/rmi://127.0.0.1:9010/jmxrmi");
        assertThat(JmxSource.serviceUrl("service:jmx:rmi:///jndi/rmi://h:1/x").toString())
                .isEqualTo("service:jmx:rmi:///jndi/rmi://h:1/x");
        for (String bad : List.of("", "host", "host:", "http://h:1", "h:1:2", "service:jmx:")) {
            assertThatThrownBy(() -> JmxSource.serviceUrl(bad)).as(bad).isInstanceOf(StatsException.class);
        }
    }

    @Test
    void passwordsNeverShowInTheConfigsText() {
        assertThat(new SourceConfig("h:1", "u", "s3cret", 1, 1).toString()).doesNotContain("s3cret");
    }

    @Test
    void sourcesAreFoundByName() throws Exception {
        assertThat(StatsSources.names()).contains("self", "jmx", "jvm-pid", "process");
        try (StatsSource self = StatsSources.open("self", SourceConfig.of(""))) {
            StatsSnapshot s = self.poll();
            assertThat(s.cpuMs()).isGreaterThan(0);
            assertThat(s.heapUsedBytes()).isGreaterThan(0);
            assertThat(s.threads()).isGreaterThan(1);
        }
        assertThatThrownBy(() -> StatsSources.open("nope", SourceConfig.of("")))
                .hasMessageContaining("unknown stats source 'nope'");
    }
}
