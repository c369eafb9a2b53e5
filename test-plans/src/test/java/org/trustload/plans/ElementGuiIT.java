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

    @BeforeAll
    static void jmeter() {
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
        Path out = Path.of(System.getProperty("trustload.screenshots",
                Plans.ROOT.resolve("test-plans/target/screenshots").toString()));
        Files.createDirectories(out);
        return beans.stream().map(cls -> DynamicTest.dynamicTest(cls.getSimpleName(), () -> {
            AtomicReference<BufferedImage> image = new AtomicReference<>();
            List<String> labels = new ArrayList<>();
            AtomicReference<TestElement> reloaded = new AtomicReference<>();
            AtomicReference<TestElement> original = new AtomicReference<>();
            SwingUtilities.invokeAndWait(() -> {
                TestBeanGUI gui = new TestBeanGUI(cls);
                TestElement element = exampleFromPlans(cls);
                if (element == null) {
                    element = gui.createTestElement();
                    element.setName(gui.getStaticLabel());
                }
                gui.configure(element);
                original.set(element);
                JFrame frame = new JFrame(cls.getSimpleName());
                frame.setContentPane(gui);
                frame.pack();
                frame.setSize(Math.max(900, frame.getWidth()), frame.getHeight());
                frame.validate();
                BufferedImage img = new BufferedImage(frame.getContentPane().getWidth(),
                        frame.getContentPane().getHeight(), BufferedImage.TYPE_INT_RGB);
                frame.getContentPane().printAll(img.getGraphics());
                image.set(img);
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
            for (org.apache.jmeter.testelement.property.PropertyIterator it = original.get().propertyIterator();
                    it.hasNext();) {
                org.apache.jmeter.testelement.property.JMeterProperty prop = it.next();
                if (prop.getName().startsWith("TestElement.")) {
                    continue;
                }
                // JMeter's GUI shows the words true/false localised ("True"/"False"); our elements parse
                // them case-insensitively, so only their case may change on the way through the GUI.
                assertThat(reloaded.get().getPropertyAsString(prop.getName()))
                        .as("property %s survives the GUI", prop.getName()).isEqualToIgnoringCase(prop.getStringValue());
                if (!prop.getStringValue().equalsIgnoreCase("true") && !prop.getStringValue().equalsIgnoreCase("false")) {
                    assertThat(reloaded.get().getPropertyAsString(prop.getName())).isEqualTo(prop.getStringValue());
                }
            }
            System.out.println("rendered " + cls.getName() + " -> " + png);
        }));
    }

    /** The first element of this class in the plan library: a realistic example for the screenshot. */
    private static TestElement exampleFromPlans(Class<?> cls) {
        for (Plans.Plan plan : Plans.all()) {
            try {
                org.apache.jorphan.collections.HashTree tree = org.apache.jmeter.save.SaveService.loadTree(plan.jmx().toFile());
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
