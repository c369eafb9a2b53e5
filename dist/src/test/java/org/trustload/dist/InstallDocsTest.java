package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bgm JVM options have one definition, {@code bin/setenv.sh}; the jmeter-maven-plugin page and its
 * example pom, which cannot source it, list every one of them.
 */
class InstallDocsTest {

    private static final Path ROOT = Path.of(System.getProperty("trustload.root", ".."));

    static List<String> bgmOptions() throws IOException {
        String line = Files.readAllLines(ROOT.resolve("dist/src/main/jmeter/bin/setenv.sh")).stream()
                .filter(l -> l.startsWith("TRUSTLOAD_BGM_JVM_ARGS=")).findFirst().orElseThrow();
        return Arrays.asList(line.substring(line.indexOf('"') + 1, line.lastIndexOf('"')).split(" "));
    }

    @Test
    void theMavenPluginPageAndItsExamplePomListEveryBgmOption() throws IOException {
        List<String> options = bgmOptions();
        assertThat(options).hasSizeGreaterThanOrEqualTo(10);
        for (String doc : List.of("docs/jmeter-maven-plugin.md", "docs/examples/jmeter-maven-plugin/pom.xml")) {
            String text = Files.readString(ROOT.resolve(doc));
            for (String o : options) {
                assertThat(text).as(doc).contains("<argument>" + o + "</argument>");
            }
        }
    }
}
