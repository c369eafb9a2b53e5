package org.trustload.jmeter.ldap;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.jmeter.util.JMeterUtils;

/**
 * Gives JMeter's static state what it needs outside a JMeter installation: a temporary JMeter home
 * whose {@code bin/} holds the stock property files from {@code ApacheJMeter_config}.
 */
final class JMeterTestSupport {
    private static boolean initialised;

    private JMeterTestSupport() {
    }

    static synchronized void init() {
        if (initialised) {
            return;
        }
        try {
            Path home = Files.createTempDirectory("tl-jmeter-home");
            Path bin = Files.createDirectories(home.resolve("bin"));
            for (String name : List.of("jmeter.properties", "saveservice.properties", "upgrade.properties",
                    "system.properties", "user.properties")) {
                try (InputStream in = JMeterTestSupport.class.getClassLoader().getResourceAsStream("bin/" + name)) {
                    if (in == null) {
                        throw new IllegalStateException("bin/" + name
                                + " not on the test classpath (ApacheJMeter_config)");
                    }
                    Files.copy(in, bin.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            home.toFile().deleteOnExit();
            JMeterUtils.setJMeterHome(home.toString());
            JMeterUtils.loadJMeterProperties(bin.resolve("jmeter.properties").toString());
            JMeterUtils.initLocale();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        initialised = true;
    }
}
