package org.trustload.jmeter.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineLoadTest {

    @TempDir
    static Path props;

    @BeforeAll
    static void jmeterProperties() throws Exception {
        Path p = props.resolve("jmeter.properties");
        Files.writeString(p, "");
        JMeterUtils.loadJMeterProperties(p.toString());
    }

    @Test
    void eachThreadReadsTheLatestReadingOfThisJvm() throws Exception {
        EngineLoad load = EngineCheckTest.serialized(new EngineLoad()); // as an engine receives it
        long before = System.currentTimeMillis();
        load.testStarted("127.0.0.1:1099");
        try {
            JMeterContextService.getContext().setVariables(new JMeterVariables());
            load.threadStarted();
            String v = JMeterContextService.getContext().getVariables().get(EngineLoad.VARIABLE);
            assertThat(v).matches("\\d{13}/\\d+/\\d*/\\d*/\\d+");
            String[] f = v.split("/", -1);
            assertThat(Long.parseLong(f[0])).isBetween(before, System.currentTimeMillis());
            assertThat(Long.parseLong(f[1])).as("this JVM's CPU ms").isPositive();
            assertThat(Integer.parseInt(f[4])).isEqualTo(Runtime.getRuntime().availableProcessors());
        } finally {
            load.testEnded("127.0.0.1:1099");
        }
    }

    @Test
    void unknownFiguresAreEmptyFields() {
        assertThat(EngineLoad.format(1_764_000_000_000L, 1234.4, Double.NaN, Double.NaN, 4))
                .isEqualTo("1764000000000/1234///4");
    }
}
