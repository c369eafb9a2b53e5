package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Component;
import java.awt.Container;
import java.awt.GraphicsEnvironment;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.SwingUtilities;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.reflect.ClassFinder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every TrustLoad element renders in JMeter's own generated GUI on a real display (Xvfb in CI),
 * shows a label for each of its properties, and round-trips its properties through the GUI. The
 * rendering is saved as PNG: to {@code target/screenshots}, or to the folder named by the system
 * property {@code trustload.screenshots} (docs/screenshots.sh refreshes the docs with it).
 */
class ElementGuiIT {

    /** Warnings JMeter's TestBean machinery logs while it builds a form (e.g. "has a DEFAULT of class"). */
    private static final List<String> TESTBEAN_WARNINGS = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeAll
    static void jmeter() {
        captureTestBeanWarnings();
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (GraphicsEnvironment.isHeadless()) {
            assertThat(ci).as("CI must run GUI tests under a display (xvfb-run)").isFalse();
            Assumptions.abort("no display: run under xvfb-run");
        }
        JMeterUtils.setJMeterHome(Plans.HOME.toString());
        JMeterUtils.loadJMeterProperties(Plans.HOME.resolve("bin/jmeter.properties").toString());
        JMeterUtils.initLocale();
    }

    @TestFactory
    Stream<DynamicTest> everyElementRendersWithAllPropertiesAndRoundTrips() throws IOException {
        List<Class<?>> beans = trustLoadTestBeans();
        assertThat(beans).as("TestBeans in our lib/ext jars").isNotEmpty();
        Path out = screenshots();
        return beans.stream().map(cls -> DynamicTest.dynamicTest(cls.getSimpleName(), () -> {
            AtomicReference<BufferedImage> image = new AtomicReference<>();
            List<String> labels = new ArrayList<>();
            AtomicReference<TestElement> reloaded = new AtomicReference<>();
            AtomicReference<TestElement> original = new AtomicReference<>();
            TESTBEAN_WARNINGS.clear();
            SwingUtilities.invokeAndWait(() -> {
                TestBeanGUI gui = new TestBeanGUI(cls);
                TestElement element = example(cls, gui);
                gui.configure(element);
                original.set(element);
                JFrame frame = new JFrame(cls.getSimpleName());
                image.set(render(frame, gui));
                collectLabels(gui, labels);
                TestElement copy = gui.createTestElement();
                gui.modifyTestElement(copy);
                reloaded.set(copy);
                frame.dispose();
            });
            File png = out.resolve(cls.getSimpleName() + ".png").toFile();
            ImageIO.write(image.get(), "png", png);
            // a short form is the aim (a request holding only per-request fields); title, name, comments and
            // one group of fields are more than 150 pixels
            assertThat(image.get().getHeight()).as("rendered height").isGreaterThan(150);
            assertThat(distinctColours(image.get())).as("not a blank image").isGreaterThan(10);
            assertThat(labels).as("labels shown").anyMatch(l -> l.contains("Scheme") || l.length() > 3);
            assertThat(TESTBEAN_WARNINGS).as("TestBean warnings in jmeter.log while the form was built").isEmpty();
            filesBrowseAndPasswordsHide(cls);
            if (cls.getName().startsWith("org.trustload.jmeter.")) {
                assertThat(labels).as("help link").anyMatch(l -> l.contains("Help on this element"));
            }
            for (org.apache.jmeter.testelement.property.PropertyIterator it = original.get().propertyIterator();
                    it.hasNext();) {
                org.apache.jmeter.testelement.property.JMeterProperty prop = it.next();
                if (prop.getName().startsWith("TestElement.")) {
                    continue;
                }
                // JMeter's GUI shows the words true/false localised ("True"/"False"); our elements parse
                // them case-insensitively, so only their case may change on the way through the GUI.
                assertThat(reloaded.get().getPropertyAsString(prop.getName()))
                        .as("property %s survives the GUI", prop.getName())
                        .isEqualToIgnoringCase(prop.getStringValue());
                if (!prop.getStringValue().equalsIgnoreCase("true")
                        && !prop.getStringValue().equalsIgnoreCase("false")) {
                    assertThat(reloaded.get().getPropertyAsString(prop.getName())).isEqualTo(prop.getStringValue());
                }
            }
            System.out.println("rendered " + cls.getName() + " -> " + png);
        }));
    }

    /**
     * The forms show only the fields of the chosen operation, mode, backend or scheme; the pictures
     * ({@code <Element>-<choice>.png}) show the docs how a form changes.
     */
    @TestFactory
    Stream<DynamicTest> formsShowOnlyTheFieldsOfTheChosenOperation() throws IOException {
        Path out = screenshots();
        record Choice(String bean, String picture, java.util.Map<String, String> set, List<String> shown,
                List<String> hidden) {
        }
        return Stream.of(
                new Choice("ldap.LdapRequestSampler", "compare", java.util.Map.of("operation", "compare"),
                        List.of("entryDn", "compareAttribute", "compareValue"), List.of("baseDn", "filter", "ldif")),
                new Choice("ldap.LdapConnectionConfig", "ldapi",
                        java.util.Map.of("scheme", "ldapi", "bindType", "sasl-external", "trustMode", "jvm-default"),
                        List.of("socketPath", "authzId"), List.of("host", "port", "bindDn", "trustStore")),
                new Choice("kms.KmsRequestSampler", "sign", java.util.Map.of("operation", "sign"),
                        List.of("keyId", "algorithm", "messageType"), List.of("secretName", "encryptionContext")),
                new Choice("kms.KmsClientConfig", "aliyun", java.util.Map.of("backend", "aliyun-kms-instance"),
                        List.of("clientKeyFile", "clientKeyPassword"), List.of("region", "accessKeyId")),
                new Choice("gmssl.TlcpRequestSampler", "handshake", java.util.Map.of("mode", "handshake"),
                        List.of(), List.of("path")),
                new Choice("pki.KeyStoreConfig", "pkcs11", java.util.Map.of("sourceType", "pkcs11"),
                        List.of("pkcs11Config"), List.of("keyStoreFile", "certificateFile")),
                new Choice("pki.CertificateLoginSampler", "mtls", java.util.Map.of("method", "mtls"),
                        List.of("mtlsPath", "sessionReuse"), List.of()),
                new Choice("pki.CertificateLoginSampler", "challenge-response",
                        java.util.Map.of("method", "challenge-response"), List.of("refusalStatuses"),
                        List.of("mtlsPath", "sessionReuse")),
                new Choice("pki.CadesSignSampler", "server-key", java.util.Map.of("mode", "server-key"),
                        List.of("serverKeyAlias", "signaturePolicy"), List.of()),
                new Choice("pki.TimestampRequestSampler", "api", java.util.Map.of("protocol", "api"),
                        List.of("timestampPlan"), List.of())
        ).map(c -> DynamicTest.dynamicTest(c.bean() + " " + c.set(), () -> {
            Class<?> cls = Class.forName("org.trustload.jmeter." + c.bean());
            AtomicReference<BufferedImage> image = new AtomicReference<>();
            List<String> wrong = new ArrayList<>();
            SwingUtilities.invokeAndWait(() -> {
                TestBeanGUI gui = new TestBeanGUI(cls);
                TestElement element = example(cls, gui);
                c.set().forEach(element::setProperty);
                element.setName(c.picture());
                gui.configure(element);
                org.trustload.jmeter.common.gui.ElementForm form = find(gui,
                        org.trustload.jmeter.common.gui.ElementForm.class);
                c.shown().stream().filter(p -> !form.isShown(p)).forEach(p -> wrong.add(p + " hidden"));
                c.hidden().stream().filter(form::isShown).forEach(p -> wrong.add(p + " shown"));
                JFrame frame = new JFrame(cls.getSimpleName());
                image.set(render(frame, gui));
                // what is hidden is still saved: the plan keeps every value
                TestElement copy = gui.createTestElement();
                gui.modifyTestElement(copy);
                c.set().forEach((k, v) -> {
                    if (!v.equals(copy.getPropertyAsString(k))) {
                        wrong.add(k + " saved as " + copy.getPropertyAsString(k));
                    }
                });
                frame.dispose();
            });
            assertThat(wrong).isEmpty();
            ImageIO.write(image.get(), "png", out.resolve(cls.getSimpleName() + "-" + c.picture() + ".png").toFile());
        }));
    }

    /** "Help on this element" opens the element's page from the plugin jar, pictures included, offline. */
    @org.junit.jupiter.api.Test
    void helpOpensTheElementPageFromTheJar() throws Exception {
        SwingUtilities.invokeAndWait(() -> org.trustload.jmeter.common.gui.HelpPages.show(null, "ldap-request"));
        Thread.sleep(2000); // the pictures load in the background
        AtomicReference<BufferedImage> image = new AtomicReference<>();
        AtomicReference<String> text = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> {
            for (java.awt.Window w : java.awt.Window.getWindows()) {
                if (w instanceof javax.swing.JDialog d && "TrustLoad help".equals(d.getTitle()) && d.isVisible()) {
                    javax.swing.JEditorPane pane = find(d, javax.swing.JEditorPane.class);
                    try {
                        text.set(pane.getDocument().getText(0, pane.getDocument().getLength()));
                    } catch (javax.swing.text.BadLocationException e) {
                        throw new IllegalStateException(e);
                    }
                    BufferedImage img = new BufferedImage(d.getContentPane().getWidth(), d.getContentPane().getHeight(),
                            BufferedImage.TYPE_INT_RGB);
                    d.getContentPane().printAll(img.getGraphics());
                    image.set(img);
                    d.dispose();
                }
            }
        });
        assertThat(text.get()).as("help window text").contains("LDAP Request (TrustLoad)", "Properties");
        ImageIO.write(image.get(), "png", Plans.ROOT.resolve("test-plans/target/help-ldap-request.png").toFile());
    }

    private static BufferedImage render(JFrame frame, TestBeanGUI gui) {
        frame.setContentPane(gui);
        frame.pack();
        frame.setSize(Math.max(900, frame.getWidth()), frame.getHeight());
        frame.validate();
        BufferedImage img = new BufferedImage(frame.getContentPane().getWidth(),
                frame.getContentPane().getHeight(), BufferedImage.TYPE_INT_RGB);
        frame.getContentPane().printAll(img.getGraphics());
        return img;
    }

    private static <T> T find(Component c, Class<T> type) {
        if (type.isInstance(c)) {
            return type.cast(c);
        }
        if (c instanceof Container) {
            for (Component child : ((Container) c).getComponents()) {
                T found = find(child, type);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** Property names that hold a file: each gets JMeter's Browse... button. */
    private static final java.util.regex.Pattern FILE =
            java.util.regex.Pattern.compile("(?i).*(file|files|store|socketpath|pkcs11config)");

    private static void filesBrowseAndPasswordsHide(Class<?> cls) throws java.beans.IntrospectionException {
        for (java.beans.PropertyDescriptor pd : java.beans.Introspector.getBeanInfo(cls).getPropertyDescriptors()) {
            if (org.apache.jmeter.testbeans.TestBeanHelper.isDescriptorIgnored(pd)) {
                continue;
            }
            String what = cls.getSimpleName() + "." + pd.getName();
            if (FILE.matcher(pd.getName()).matches()) {
                assertThat(pd.getPropertyEditorClass()).as(what + " has Browse...")
                        .isEqualTo(org.apache.jmeter.testbeans.gui.FileEditor.class);
            }
            String lower = pd.getName().toLowerCase(java.util.Locale.ROOT);
            if (lower.contains("password") || lower.contains("credential")) {
                assertThat(pd.getPropertyEditorClass()).as(what + " hides its text")
                        .isEqualTo(org.apache.jmeter.testbeans.gui.PasswordEditor.class);
            }
        }
    }

    /** Collects WARN and worse from org.apache.jmeter.testbeans (log4j2, as in JMeter) into TESTBEAN_WARNINGS. */
    private static void captureTestBeanWarnings() {
        org.apache.logging.log4j.core.LoggerContext ctx =
                (org.apache.logging.log4j.core.LoggerContext) org.apache.logging.log4j.LogManager.getContext(false);
        org.apache.logging.log4j.core.Appender capture = new org.apache.logging.log4j.core.appender.AbstractAppender(
                "testbean-warnings", null, null, true, org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY) {
            @Override
            public void append(org.apache.logging.log4j.core.LogEvent event) {
                TESTBEAN_WARNINGS.add(event.getLoggerName() + ": " + event.getMessage().getFormattedMessage());
            }
        };
        capture.start();
        org.apache.logging.log4j.core.config.LoggerConfig testbeans =
                new org.apache.logging.log4j.core.config.LoggerConfig(
                        "org.apache.jmeter.testbeans", org.apache.logging.log4j.Level.WARN, false);
        testbeans.addAppender(capture, org.apache.logging.log4j.Level.WARN, null);
        ctx.getConfiguration().addLogger("org.apache.jmeter.testbeans", testbeans);
        ctx.updateLoggers();
        // the capture itself works: a warning of that package is caught
        org.slf4j.LoggerFactory.getLogger("org.apache.jmeter.testbeans.gui.ElementGuiIT").warn("probe");
        assertThat(TESTBEAN_WARNINGS).as("warning capture").hasSize(1);
        TESTBEAN_WARNINGS.clear();
    }

    /** The plans' first element of this class, or a new one with its defaults. */
    private static TestElement example(Class<?> cls, TestBeanGUI gui) {
        TestElement element = exampleFromPlans(cls);
        if (element == null) {
            element = gui.createTestElement();
            element.setName(gui.getStaticLabel());
        }
        return element;
    }

    /** Where the pictures go: target/screenshots, or the folder named by -Dtrustload.screenshots. */
    private static Path screenshots() throws IOException {
        return Files.createDirectories(Path.of(System.getProperty("trustload.screenshots",
                Plans.ROOT.resolve("test-plans/target/screenshots").toString())));
    }

    /** The first element of this class in the plan library: a realistic example for the screenshot. */
    private static TestElement exampleFromPlans(Class<?> cls) {
        for (Plans.Plan plan : Plans.all()) {
            try {
                org.apache.jorphan.collections.HashTree tree =
                        org.apache.jmeter.save.SaveService.loadTree(plan.jmx().toFile());
                org.apache.jorphan.collections.SearchByClass<?> search =
                        new org.apache.jorphan.collections.SearchByClass<>(cls);
                tree.traverse(search);
                if (!search.getSearchResults().isEmpty()) {
                    return (TestElement) search.getSearchResults().iterator().next();
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return null;
    }

    private static List<Class<?>> trustLoadTestBeans() throws IOException {
        List<String> jars = new ArrayList<>();
        try (Stream<Path> s = Files.list(Plans.HOME.resolve("lib/ext"))) {
            s.filter(p -> p.getFileName().toString().startsWith("trustload-")).forEach(p -> jars.add(p.toString()));
        }
        List<Class<?>> out = new ArrayList<>();
        for (String name : ClassFinder.findClassesThatExtend(jars.toArray(new String[0]),
                new Class<?>[] {TestBean.class})) {
            try {
                out.add(Class.forName(name));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(name, e);
            }
        }
        return out;
    }

    private static void collectLabels(Component c, List<String> labels) {
        if (c instanceof JLabel && ((JLabel) c).getText() != null) {
            labels.add(((JLabel) c).getText());
        }
        if (c instanceof Container) {
            for (Component child : ((Container) c).getComponents()) {
                collectLabels(child, labels);
            }
        }
    }

    private static long distinctColours(BufferedImage img) {
        return java.util.stream.IntStream.range(0, img.getHeight()).boxed()
                .flatMap(y -> java.util.stream.IntStream.range(0, img.getWidth()).map(x -> img.getRGB(x, y)).boxed())
                .distinct().limit(1000).count();
    }
}
