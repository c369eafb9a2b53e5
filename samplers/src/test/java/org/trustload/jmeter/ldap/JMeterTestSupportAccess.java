package org.trustload.jmeter.ldap;

/** Lets tests of other element packages initialise JMeter the same way. */
public final class JMeterTestSupportAccess {
    private JMeterTestSupportAccess() {
    }

    public static void init() {
        JMeterTestSupport.init();
    }
}
