package org.trustload.jmeter.common.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.lang3.ClassUtils;
import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.jmeter.common.BeanInfoHelper;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;

/**
 * Every TrustLoad element of this jar, found by its BeanInfo: the attributes pass JMeter's own checks (no
 * GenericTestBeanCustomizer warning), the form has a help page shipped in the jar, and the fields shown per operation
 * name real drop-down values. (Browse on file fields and hidden passwords: ElementGuiIT, for the elements of every
 * TrustLoad jar.)
 */
class ElementFormsTest {

    @BeforeAll
    static void jmeter() {
        JMeterTestSupportAccess.init();
    }

    static List<Class<?>> beans() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(BeanInfoHelper.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> beans = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith("BeanInfo.class")).toList()) {
                String name = classes.relativize(p).toString().replace('/', '.').replace(".class", "");
                Class<?> info = Class.forName(name);
                if (!Modifier.isAbstract(info.getModifiers()) && BeanInfoSupport.class.isAssignableFrom(info)) {
                    beans.add(Class.forName(name.substring(0, name.length() - "BeanInfo".length())));
                }
            }
        }
        assertThat(beans).hasSizeGreaterThanOrEqualTo(15);
        return beans;
    }

    private static List<PropertyDescriptor> shownProperties(Class<?> bean) throws Exception {
        return Arrays.stream(Introspector.getBeanInfo(bean).getPropertyDescriptors())
                .filter(pd -> !TestBeanHelper.isDescriptorIgnored(pd)).toList();
    }

    /** The checks GenericTestBeanCustomizer.validateAttributes logs a warning for, every time a form opens. */
    @ParameterizedTest
    @MethodSource("beans")
    void attributesPassJMetersChecks(Class<?> bean) throws Exception {
        for (PropertyDescriptor pd : shownProperties(bean)) {
            String what = bean.getSimpleName() + "." + pd.getName();
            Object def = pd.getValue(BeanInfoSupport.DEFAULT);
            assertThat(def).as(what + " has a default").isNotNull();
            assertThat(ClassUtils.primitiveToWrapper(pd.getPropertyType())).as(what + ": class of its DEFAULT")
                    .isAssignableFrom(def.getClass());
            assertThat(pd.getValue(BeanInfoSupport.NOT_UNDEFINED)).as(what + " is NOT_UNDEFINED").isEqualTo(true);
            if (Boolean.TRUE.equals(pd.getValue(BeanInfoSupport.NOT_OTHER))) {
                assertThat(pd.getValue(BeanInfoSupport.TAGS)).as(what + " tags").isNotNull();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("beans")
    void formHasAHelpPageInTheJar(Class<?> bean) throws Exception {
        Class<?> form = Introspector.getBeanInfo(bean).getBeanDescriptor().getCustomizerClass();
        assertThat(form).as("customizer").isNotNull();
        assertThat(ElementForm.class).isAssignableFrom(form);
        ElementForm f = (ElementForm) form.getDeclaredConstructor().newInstance();
        assertThat(HelpPages.page(f.helpPage())).as("docs/elements/" + f.helpPage() + ".md in the jar").isNotNull();
        String html = HelpPages.html(f.helpPage());
        assertThat(html).contains("<h1>", "<table");
        assertThat(html.replaceAll("(?s)<pre>.*?</pre>", "")).as("Markdown left unrendered")
                .doesNotContain("](", "**", "|---", "&lt;!--", "```");
        Matcher img = Pattern.compile("<img src=\"([^\"]+)\"").matcher(html);
        while (img.find()) {
            assertThat(HelpPages.class.getResource(HelpPages.FOLDER + img.group(1))).as(img.group(1)).isNotNull();
        }
    }

    @ParameterizedTest
    @MethodSource("beans")
    void fieldsShownPerSelectorNameItsDropDownValues(Class<?> bean) throws Exception {
        BeanInfo info = Introspector.getBeanInfo(bean);
        Map<String, PropertyDescriptor> byName = new HashMap<>();
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            byName.put(pd.getName(), pd);
        }
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            if (pd.getValue(ElementForm.SHOWN_WHEN) instanceof ElementForm.Shown shown) {
                PropertyDescriptor selector = byName.get(shown.selector());
                assertThat(selector).as(pd.getName() + "'s selector").isNotNull();
                assertThat((String[]) selector.getValue(BeanInfoSupport.TAGS)).as(shown.selector() + " tags")
                        .contains(shown.values().toArray(new String[0]));
            }
        }
    }

    @Test
    void ldapRequestShowsOnlyTheChosenOperationsFields() {
        ElementForm form = new org.trustload.jmeter.ldap.LdapRequestSamplerBeanInfo.Form();
        form.setObject(new HashMap<>(Map.of("operation", "compare")));
        assertThat(form.isShown("entryDn")).isTrue();
        assertThat(form.isShown("compareValue")).isTrue();
        assertThat(form.isShown("baseDn")).isFalse();
        assertThat(form.isShown("ldif")).isFalse();
        form.setObject(new HashMap<>(Map.of("operation", "search")));
        assertThat(form.isShown("baseDn")).isTrue();
        assertThat(form.isShown("entryDn")).isFalse();
        form.setObject(new HashMap<>(Map.of("operation", "whoami")));
        assertThat(form.isShown("baseDn")).isFalse();
        assertThat(form.isShown("entryDn")).isFalse();
        // choosing in the drop-down changes the fields at once
        javax.swing.JComboBox<?> operation = combo(form, "compare");
        operation.setSelectedItem("add");
        assertThat(form.isShown("ldif")).isTrue();
        assertThat(form.isShown("entryDn")).isFalse();
        // an expression could be any operation: every field shows
        form.setObject(new HashMap<>(Map.of("operation", "${op}")));
        assertThat(form.isShown("baseDn")).isTrue();
        assertThat(form.isShown("ldif")).isTrue();
    }

    private static javax.swing.JComboBox<?> combo(java.awt.Container c, Object item) {
        for (java.awt.Component child : c.getComponents()) {
            if (child instanceof javax.swing.JComboBox<?> box) {
                for (int i = 0; i < box.getItemCount(); i++) {
                    if (item.equals(box.getItemAt(i))) {
                        return box;
                    }
                }
            } else if (child instanceof java.awt.Container inner) {
                javax.swing.JComboBox<?> found = combo(inner, item);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    @Test
    void markdownRendersTheSubsetThePagesUse() {
        String html = HelpPages.toHtml("# Title (x)\n\nText with `a|b` and [link](other.md) and *em* and **b**.\n\n"
                + "| h1 | h2 |\n|---|---|\n| `x\\|y` | ![alt](img/A.png) |\n\n- one\n  more\n- two\n\n```\n<tag>\n"
                + "```\n");
        assertThat(html).contains("<a name=\"title-x\"></a><h1>Title (x)</h1>",
                "<code>a|b</code>", "<a href=\"other.md\">link</a>", "<i>em</i>", "<b>b</b>",
                "<th align=\"left\">h1</th>", "<td><code>x|y</code></td>", "<img src=\"img/A.png\" alt=\"alt\">",
                "<li>one more</li>", "<li>two</li>", "<pre>&lt;tag&gt;\n</pre>");
    }
}
