package org.apache.jmeter.testbeans.gui;

import java.beans.BeanInfo;

/**
 * JMeter's generated TestBean form, open for extension. It sits in JMeter's package because
 * {@link GenericTestBeanCustomizer}'s constructor is package-private, and {@link TestBeanGUI} saves
 * the form's fields into the element only when its customizer is a GenericTestBeanCustomizer: a form
 * that wrapped one instead of extending it would lose every edit. TrustLoad's forms
 * ({@code org.trustload.jmeter.common.gui.ElementForm}) add nothing here; this class only opens the door.
 */
public abstract class ExtensibleTestBeanCustomizer extends GenericTestBeanCustomizer {
    private static final long serialVersionUID = 1L;

    protected ExtensibleTestBeanCustomizer(BeanInfo beanInfo) {
        super(beanInfo);
    }
}
