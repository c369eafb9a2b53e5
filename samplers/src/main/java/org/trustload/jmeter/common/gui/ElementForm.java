package org.trustload.jmeter.common.gui;

import org.apache.jmeter.testbeans.gui.ExtensibleTestBeanCustomizer;
import org.apache.jmeter.util.JMeterUtils;

import java.awt.Component;
import java.awt.Container;
import java.awt.Cursor;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.beans.BeanInfo;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.border.TitledBorder;

/**
 * The form of a TrustLoad element: JMeter's generated TestBean form, plus a "Help on this element"
 * link to the element's own page, and fields that show only when they apply. A property marked with
 * {@link #SHOWN_WHEN} (see {@code BeanInfoHelper.shownWhen}) is visible only while its selector
 * (e.g. {@code operation}) holds one of the listed values; a group whose fields are all hidden hides
 * too. A selector holding anything else (a {@code ${...}} expression) shows every field. Hidden fields
 * keep their values and are saved as before: the form changes what is shown, never what is stored.
 *
 * <p>JMeter creates the form with a no-argument constructor; each element declares a one-line
 * subclass naming its bean class and help page, and sets it on its BeanDescriptor.
 */
public abstract class ElementForm extends ExtensibleTestBeanCustomizer {
    private static final long serialVersionUID = 1L;

    /** PropertyDescriptor attribute: a {@link Shown} naming when the property's field is shown. */
    public static final String SHOWN_WHEN = "trustload.shownWhen";

    /** The selector property and the values of it for which a field is shown. */
    public record Shown(String selector, Set<String> values) {
    }

    private final String helpPage;
    /** property name -> its label and editor, for the properties shown only for some selector values */
    private final transient Map<String, Component[]> rows = new LinkedHashMap<>();
    private final transient Map<String, Shown> rules = new HashMap<>();
    private final transient Map<String, JComboBox<?>> selectors = new HashMap<>();

    protected ElementForm(Class<?> beanClass, String helpPage) {
        super(beanInfo(beanClass));
        this.helpPage = helpPage;
        BeanInfo info = beanInfo(beanClass);
        Map<String, PropertyDescriptor> byLabel = new HashMap<>();
        MessageFormat label = new MessageFormat(JMeterUtils.getResString("property_as_field_label"));
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            byLabel.put(label.format(new Object[] {pd.getDisplayName()}), pd);
            if (pd.getValue(SHOWN_WHEN) instanceof Shown shown) {
                rules.put(pd.getName(), shown);
            }
        }
        for (JLabel l : labels(this, new ArrayList<>())) {
            PropertyDescriptor pd = byLabel.get(l.getText());
            if (pd == null || l.getLabelFor() == null) {
                continue;
            }
            if (rules.containsKey(pd.getName())) {
                rows.put(pd.getName(), new Component[] {l, l.getLabelFor()});
            }
            if (l.getLabelFor() instanceof JComboBox<?> combo) {
                selectors.put(pd.getName(), combo);
            }
        }
        for (Shown shown : rules.values()) {
            JComboBox<?> combo = selectors.get(shown.selector());
            if (combo == null) {
                throw new IllegalStateException(beanClass.getName() + ": selector " + shown.selector()
                        + " is no drop-down in the form");
            }
            combo.addItemListener(e -> showFieldsThatApply());
        }
        addHelpLink();
        showFieldsThatApply();
    }

    @Override
    public void setObject(Object map) {
        super.setObject(map);
        showFieldsThatApply();
    }

    /** Whether the field of this property is shown now (for tests and screenshots). */
    public boolean isShown(String property) {
        Component[] row = rows.get(property);
        return row == null || row[0].isVisible();
    }

    private void showFieldsThatApply() {
        for (Map.Entry<String, Component[]> row : rows.entrySet()) {
            Shown shown = rules.get(row.getKey());
            Object selected = selectors.get(shown.selector()).getSelectedItem();
            String value = selected == null ? "" : selected.toString();
            boolean known = selectorTags(shown.selector()).contains(value);
            boolean visible = !known || shown.values().contains(value);
            for (Component c : row.getValue()) {
                c.setVisible(visible);
            }
        }
        for (Component c : getComponents()) {
            if (c instanceof JPanel group && group.getBorder() instanceof TitledBorder) {
                boolean any = false;
                for (Component field : group.getComponents()) {
                    any |= field.isVisible();
                }
                group.setVisible(any);
            }
        }
        revalidate();
        repaint();
    }

    /** The values a selector's drop-down offers; anything else (an expression) shows every field. */
    private Set<String> selectorTags(String selector) {
        JComboBox<?> combo = selectors.get(selector);
        Set<String> tags = new java.util.HashSet<>();
        for (Shown s : rules.values()) {
            if (s.selector().equals(selector)) {
                tags.addAll(s.values());
            }
        }
        for (int i = 0; i < combo.getItemCount(); i++) {
            Object item = combo.getItemAt(i);
            if (item instanceof String s) {
                tags.add(s);
            }
        }
        return tags;
    }

    /** Puts a "Help on this element" link above the fields, the way jmeter-plugins' forms do. */
    private void addHelpLink() {
        JLabel link = new JLabel("<html><a href=''>Help on this element</a></html>");
        link.setName("trustload.help");
        link.setToolTipText("Opens this element's TrustLoad page (docs/elements/" + helpPage
                + ".md, shipped in the plugin jar: no network needed)");
        link.setCursor(Cursor.getPredefinedCursor(Cursor.HAND_CURSOR));
        link.addMouseListener(new MouseAdapter() {
            @Override
            public void mouseClicked(MouseEvent e) {
                HelpPages.show(ElementForm.this, helpPage);
            }
        });
        JPanel bar = new JPanel(new FlowLayout(FlowLayout.RIGHT, 0, 0));
        bar.add(link);
        // GridBagLayout places rows in the order they were added: put the link first
        GridBagLayout layout = (GridBagLayout) getLayout();
        Component[] existing = getComponents();
        List<GridBagConstraints> constraints = new ArrayList<>();
        for (Component c : existing) {
            constraints.add(layout.getConstraints(c));
        }
        removeAll();
        GridBagConstraints top = new GridBagConstraints();
        top.gridx = 1;
        top.gridy = GridBagConstraints.RELATIVE;
        top.gridwidth = 2;
        top.weightx = 1.0;
        top.fill = GridBagConstraints.HORIZONTAL;
        add(bar, top);
        for (int i = 0; i < existing.length; i++) {
            add(existing[i], constraints.get(i));
        }
    }

    /** The page name of this element's help (docs/elements/NAME.md). */
    public String helpPage() {
        return helpPage;
    }

    private static List<JLabel> labels(Container c, List<JLabel> out) {
        for (Component child : c.getComponents()) {
            if (child instanceof JLabel l) {
                out.add(l);
            } else if (child instanceof Container inner && !(child instanceof JComboBox)) {
                labels(inner, out);
            }
        }
        return out;
    }

    private static BeanInfo beanInfo(Class<?> beanClass) {
        try {
            return Introspector.getBeanInfo(beanClass);
        } catch (IntrospectionException e) {
            throw new IllegalStateException("no BeanInfo for " + beanClass.getName(), e);
        }
    }
}
