package org.trustload.dist.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JMeterHomeSetupTest {

    private static Path home(Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("bin"));
        Files.writeString(tmp.resolve("bin/ApacheJMeter.jar"), "");
        return tmp;
    }

    @Test
    void writesTrustloadPropertiesAndAppendsTheBgmOptionsOnceKeepingTheUsersSetenv(@TempDir Path tmp)
            throws IOException {
        Path home = home(tmp);
        Files.writeString(home.resolve("bin/setenv.sh"), "HEAP=\"-Xmx2g\"");
        JMeterHomeSetup.setUp(home);
        JMeterHomeSetup.setUp(home); // a reinstall replaces the block
        String setenv = Files.readString(home.resolve("bin/setenv.sh"));
        assertThat(setenv).startsWith("HEAP=\"-Xmx2g\"\n" + JMeterHomeSetup.BEGIN + "\n")
                .endsWith(JMeterHomeSetup.END + "\n");
        assertThat(setenv.split("TRUSTLOAD_BGM_JVM_ARGS=\"", -1)).as("one definition").hasSize(2);
        assertThat(Files.readString(home.resolve("bin/trustload.properties"))).contains("sample_variables=jvm_cpu_ms");
    }

    @Test
    void createsSetenvWhenThereIsNone(@TempDir Path tmp) throws IOException {
        JMeterHomeSetup.setUp(home(tmp));
        assertThat(Files.readString(tmp.resolve("bin/setenv.sh"))).startsWith(JMeterHomeSetup.BEGIN)
                .contains("--add-exports=java.base/jdk.internal.access=ALL-UNNAMED");
    }

    @Test
    void refusesADirectoryThatIsNotAJMeterHome(@TempDir Path tmp) {
        assertThatThrownBy(() -> JMeterHomeSetup.setUp(tmp)).hasMessageContaining("not a JMeter home");
    }
}
