package org.trustload.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class JmxTest {

    private static final Path PLANS = Path.of(System.getProperty("trustload.root", "..")).resolve("test-plans");

    @Test
    void readsEnabledThreadGroupsWithTheirSchedulerAndSamplers() throws Exception {
        var groups = Jmx.threadGroups(PLANS.resolve("jdbc/mysql-select-insert.jmx"));
        assertThat(groups).extracting(Jmx.ThreadGroup::kind).contains("SetupThreadGroup", "ThreadGroup");
        assertThat(groups).allMatch(Jmx.ThreadGroup::hasSampler);
        var pades = Jmx.threadGroups(PLANS.resolve("pki/pades.jmx"));
        assertThat(pades).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("PAdES-B signers");
            assertThat(g.threads(Map.of())).hasValue(20);
            assertThat(g.threads(Map.of("threads", "2"))).hasValue(2);
            assertThat(g.scheduledSeconds(Map.of("duration", "60"))).hasValue(60);
        });
    }

    @Test
    void resolvesLiteralsAndPropertyFunctionsOnly() {
        assertThat(Jmx.resolve("7", Map.of())).hasValue(7);
        assertThat(Jmx.resolve("${__P(n,3)}", Map.of())).hasValue(3);
        assertThat(Jmx.resolve("${__P(n,3)}", Map.of("n", "0"))).hasValue(0);
        assertThat(Jmx.resolve("${__property(n,,4)}", Map.of())).hasValue(4);
        assertThat(Jmx.resolve("${__groovy(1+1)}", Map.of())).isEqualTo(OptionalLong.empty());
    }
}
