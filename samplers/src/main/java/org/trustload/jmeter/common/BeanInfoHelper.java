package org.trustload.jmeter.common;

import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.gui.FileEditor;
import org.apache.jmeter.testbeans.gui.PasswordEditor;
import org.trustload.jmeter.common.gui.ElementForm;

import java.beans.BeanDescriptor;
import java.beans.PropertyDescriptor;
import java.util.Enumeration;
import java.util.Set;

/**
 * Shorthands for the generated GUIs of TrustLoad elements: text, drop-down, file and password fields,
 * fields shown only for some values of a selector, and the element's {@link ElementForm} (help link).
 */
public abstract class BeanInfoHelper extends BeanInfoSupport {

    private BeanDescriptor descriptor;
    private PropertyDescriptor[] properties;

    /**
     * @param form the element's form: a public subclass of {@link ElementForm} with a public no-argument
     *             constructor (JMeter's TestBeanGUI creates it from the BeanDescriptor's customizer class)
     */
    protected BeanInfoHelper(Class<? extends org.apache.jmeter.testbeans.TestBean> beanClass,
            Class<? extends ElementForm> form) {
        super(beanClass);
        // the BeanDescriptor takes its customizer class only in its constructor: copy JMeter's one
        BeanDescriptor jmeters = super.getBeanDescriptor();
        BeanDescriptor ours = new BeanDescriptor(beanClass, form);
        ours.setName(jmeters.getName());
        ours.setDisplayName(jmeters.getDisplayName());
        ours.setShortDescription(jmeters.getShortDescription());
        for (Enumeration<String> names = jmeters.attributeNames(); names.hasMoreElements();) {
            String name = names.nextElement();
            ours.setValue(name, jmeters.getValue(name));
        }
        descriptor = ours;
        // java.beans.Introspector hands every subclass the same PropertyDescriptor object for a property
        // inherited unchanged (configName of ClientConfig), and BeanInfoSupport's constructor has just
        // written this element's display name and description into it: the next element's would
        // overwrite them (a KMS Client Config form showed TLCP's text). This BeanInfo keeps copies.
        PropertyDescriptor[] shared = super.getPropertyDescriptors();
        PropertyDescriptor[] copies = new PropertyDescriptor[shared.length];
        for (int i = 0; i < shared.length; i++) {
            copies[i] = copy(shared[i]);
        }
        properties = copies;
    }

    @Override
    public PropertyDescriptor[] getPropertyDescriptors() {
        // BeanInfoSupport's constructor calls this before ours has run
        return properties == null ? super.getPropertyDescriptors() : properties;
    }

    private static PropertyDescriptor copy(PropertyDescriptor pd) {
        try {
            PropertyDescriptor c = new PropertyDescriptor(pd.getName(), pd.getReadMethod(), pd.getWriteMethod());
            c.setDisplayName(pd.getDisplayName());
            c.setShortDescription(pd.getShortDescription());
            c.setExpert(pd.isExpert());
            c.setHidden(pd.isHidden());
            c.setPreferred(pd.isPreferred());
            c.setBound(pd.isBound());
            c.setConstrained(pd.isConstrained());
            c.setPropertyEditorClass(pd.getPropertyEditorClass());
            for (Enumeration<String> names = pd.attributeNames(); names.hasMoreElements();) {
                String name = names.nextElement();
                c.setValue(name, pd.getValue(name));
            }
            return c;
        } catch (java.beans.IntrospectionException e) {
            throw new IllegalStateException("cannot copy the descriptor of " + pd.getName(), e);
        }
    }

    @Override
    public BeanDescriptor getBeanDescriptor() {
        // BeanInfoSupport's constructor calls this before ours has run
        return descriptor == null ? super.getBeanDescriptor() : descriptor;
    }

    /**
     * The fields every config element has ({@link ClientConfig}): the "name" group holding the config
     * name, and the defaults of the config name and of the two timeouts, taken from a new element so
     * that the form and the element never disagree. Call it first (groups show in the order they are
     * made); the timeouts go in whichever group the element's BeanInfo puts them.
     */
    protected void clientConfig(ClientConfig<?> fresh) {
        createPropertyGroup("name", new String[] {ClientConfig.CONFIG_NAME});
        text(ClientConfig.CONFIG_NAME, fresh.getConfigName());
        text("connectTimeout", fresh.getConnectTimeout());
        text("responseTimeout", fresh.getResponseTimeout());
    }

    protected void text(String name, Object def) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, def);
    }

    /** A drop-down that still accepts ${...} expressions. */
    protected void choice(String name, String def, String... tags) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, def);
        p.setValue(TAGS, tags);
        p.setValue(NOT_OTHER, Boolean.FALSE);
    }

    /** A check box, unticked by default. */
    protected void flag(String name) {
        text(name, Boolean.FALSE);
    }

    /** A file name with a Browse... button. */
    protected void file(String name) {
        PropertyDescriptor p = property(name);
        p.setPropertyEditorClass(FileEditor.class);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "");
    }

    protected void password(String name) {
        PropertyDescriptor p = property(name);
        p.setPropertyEditorClass(PasswordEditor.class);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "");
    }

    /**
     * Shows the fields of these properties only while the drop-down {@code selector} holds one of
     * {@code values} (or an expression); the properties are saved whatever is shown.
     */
    protected void shownWhen(String selector, String[] values, String... properties) {
        for (String name : properties) {
            property(name).setValue(ElementForm.SHOWN_WHEN, new ElementForm.Shown(selector, Set.of(values)));
        }
    }

    /** Shorthand for the {@code values} of {@link #shownWhen}. */
    protected static String[] when(String... values) {
        return values;
    }
}
