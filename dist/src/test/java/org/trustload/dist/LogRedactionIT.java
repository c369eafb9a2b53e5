package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assembled home's {@code bin/log4j2.xml} keeps property values out of jmeter.log: a real headless
 * run with {@code -J}, {@code -G} and {@code -D} passwords (the distributed-mode lines are checked by
 * test-plans' {@code DistributedSecretsIT}).
 */
class LogRedactionIT {

    private static final Path HOME = Path.of(System.getProperty("trustload.jmeter.home"));

    @Test
    void commandLinePropertyValuesAreRedactedInJMeterLog(@TempDir Path tmp) throws Exception {
        Path plan = Path.of(LogRedactionIT.class.getResource("/trivial.jmx").toURI());
        ProcessBuilder pb = new ProcessBuilder(HOME.resolve("bin/jmeter").toString(), "-n", "-t", plan.toString(),
                "-Jdb.password=J9vQ2xLmT4", "-Gapi.token=G7wR3yNpK8", "-Dsys.secret=D5tH6uJcB1",
                "-l", "results.jtl", "-j", "jmeter.log")
                .directory(tmp.toFile()).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile());
        pb.environment().put("HEAP", "-Xms128m -Xmx256m");
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("JMeter finished").isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("out.txt"))).isZero();
        String log = Files.readString(tmp.resolve("jmeter.log"));
        assertThat(log).contains("Setting JMeter property: db.password=<redacted>",
                "Setting Global property: api.token=<redacted>", "Setting System property: sys.secret=<redacted>");
        for (String f : new String[] {"jmeter.log", "out.txt", "results.jtl"}) {
            assertThat(Files.readString(tmp.resolve(f))).as(f)
                    .doesNotContain("J9vQ2xLmT4").doesNotContain("G7wR3yNpK8").doesNotContain("D5tH6uJcB1");
        }
    }
}
