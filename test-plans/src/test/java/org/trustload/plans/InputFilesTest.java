package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.BeanInfo;
import java.beans.PropertyDescriptor;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.jmeter.testbeans.gui.FileEditor;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.harness.jmx.PlanFile;

/**
 * The data files {@code run --remote} checks and ships on the engines ({@link PlanFile#TRUSTLOAD_INPUT_FILES}) are
 * every file property of a TrustLoad element (a {@link FileEditor} in its BeanInfo), less those a run writes or that
 * name a Unix socket of the server's host; and {@link PlanFile#inputFiles} finds them in a plan with the run's
 * properties.
 */
class InputFilesTest {

    /** File properties that are not inputs of the engine: outputs, and the LDAPI socket (on the server's host). */
    private static final Set<String> NOT_INPUTS = Set.of("outputFile", "summaryFile", "socketPath");

    @BeforeAll
    static void jmeter() {
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
    }

    @Test
    void everyFilePropertyOfATrustLoadElementIsAnInputFileOrAnOutput() throws Exception {
        Set<String> fileProperties = new TreeSet<>();
        for (Class<?> anchor : new Class<?>[] {org.trustload.jmeter.pki.KeyStoreConfig.class,
                org.trustload.jmeter.jvmstats.JvmStats.class}) {
            for (String beanInfo : beanInfoClasses(anchor)) {
                // the BeanInfo itself; a shared base (SignSamplerBeanInfo) is covered by its concrete subclasses
                Class<?> type = Class.forName(beanInfo);
                if (java.lang.reflect.Modifier.isAbstract(type.getModifiers())
                        || Stream.of(type.getConstructors()).noneMatch(c -> c.getParameterCount() == 0)) {
                    continue;
                }
                BeanInfo info = (BeanInfo) type.getConstructor().newInstance();
                for (PropertyDescriptor p : info.getPropertyDescriptors()) {
                    if (p.getPropertyEditorClass() == FileEditor.class) {
                        fileProperties.add(p.getName());
                    }
                }
            }
        }
        assertThat(fileProperties).as("file properties of the TrustLoad elements")
                .contains("keyStoreFile", "trustStore", "outputFile");
        Set<String> inputs = new TreeSet<>(fileProperties);
        inputs.removeAll(NOT_INPUTS);
        assertThat(new TreeSet<>(PlanFile.TRUSTLOAD_INPUT_FILES)).as("PlanFile.TRUSTLOAD_INPUT_FILES")
                .isEqualTo(inputs);
    }

    @Test
    void aPlansInputFilesAreFoundWithTheRunsPropertiesAndOnlyThose() throws Exception {
        Path plan = Plans.DIR.resolve("ldap/ldap-search-200x10.jmx");
        assertThat(PlanFile.inputFiles(plan, Map.of())).as("no trust store given: no file").isEmpty();
        assertThat(PlanFile.inputFiles(plan, Map.of("ldap.truststore", "/data/t.p12")))
                .extracting(PlanFile.InputFile::path, PlanFile.InputFile::namedBy)
                .singleElement().satisfies(t -> {
                    assertThat(t.toList().get(0)).isEqualTo("/data/t.p12");
                    assertThat((String) t.toList().get(1)).endsWith("(trustStore)");
                });
    }

    /** The names of the BeanInfo classes beside {@code anchor} (its jar or classes folder). */
    private static Set<String> beanInfoClasses(Class<?> anchor) throws Exception {
        URI where = anchor.getProtectionDomain().getCodeSource().getLocation().toURI();
        Path root = Path.of(where);
        Set<String> out = new TreeSet<>();
        FileSystem zip = Files.isDirectory(root) ? null : FileSystems.newFileSystem(root);
        try {
            Path base = zip == null ? root : zip.getPath("/");
            try (Stream<Path> s = Files.walk(base)) {
                s.map(p -> base.relativize(p).toString())
                        .filter(n -> n.startsWith("org/trustload/") && n.endsWith("BeanInfo.class"))
                        .forEach(n -> out.add(n.substring(0, n.length() - ".class".length()).replace('/', '.')));
            }
        } finally {
            if (zip != null) {
                zip.close();
            }
        }
        return out;
    }
}
