package org.trustload.jmeter.common;

import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.gui.FileEditor;
import org.apache.jmeter.testbeans.gui.PasswordEditor;

import java.beans.PropertyDescriptor;

/** Shorthands for the generated GUIs of TrustLoad elements: text, drop-down, file and password fields. */
public abstract class BeanInfoHelper extends BeanInfoSupport {

    protected BeanInfoHelper(Class<? extends org.apache.jmeter.testbeans.TestBean> beanClass) {
        super(beanClass);
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
}
