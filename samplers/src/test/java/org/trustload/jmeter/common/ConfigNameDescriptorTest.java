package org.trustload.jmeter.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.List;
import java.util.ResourceBundle;
import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.trustload.jmeter.gmssl.TlcpClientConfig;
import org.trustload.jmeter.kms.KmsClientConfig;
import org.trustload.jmeter.ldap.JMeterTestSupportAccess;
import org.trustload.jmeter.ldap.LdapConnectionConfig;
import org.trustload.jmeter.pki.SignatureServerConfig;

/**
 * "Config name" and the two timeouts are properties of every config element's common base
 * ({@link ClientConfig}). Each form must still describe them in its own words, whichever BeanInfo JMeter
 * built last (the descriptor of an inherited property is one object shared by all subclasses;
 * BeanInfoHelper keeps copies per element), and offer the defaults its element starts with.
 */
class ConfigNameDescriptorTest {

    private static final List<String> INHERITED = List.of("configName", "connectTimeout", "responseTimeout");
    private static final List<Class<? extends ClientConfig<?>>> CONFIGS = List.of(LdapConnectionConfig.class,
            KmsClientConfig.class, TlcpClientConfig.class, SignatureServerConfig.class);

    @BeforeAll
    static void jmeter() {
        // BeanInfoSupport reads each form's texts in JMeter's locale: alone, this class ran before any test
        // set JMeter up and saw no texts at all (it passed only after other test classes)
        JMeterTestSupportAccess.init();
    }

    @Test
    void everyConfigDescribesItsInheritedPropertiesInItsOwnWordsWhateverTheOrderTheFormsWereBuilt() throws Exception {
        for (int round = 0; round < CONFIGS.size(); round++) {
            for (int i = 0; i < CONFIGS.size(); i++) { // each class built last once
                Introspector.getBeanInfo(CONFIGS.get((i + round) % CONFIGS.size()));
            }
            for (Class<?> c : CONFIGS) {
                ResourceBundle own = ResourceBundle.getBundle(c.getName() + "Resources");
                for (String name : INHERITED) {
                    assertThat(descriptor(Introspector.getBeanInfo(c), name).getShortDescription())
                            .as(c.getSimpleName() + "." + name).isEqualTo(own.getString(name + ".shortDescription"));
                }
            }
        }
    }

    @Test
    void everyFormOffersTheDefaultsItsElementStartsWith() throws Exception {
        List<String> defaults = List.of("ldap 5000 30000", "kms 5000 30000", "tlcp 5000 10000",
                "signature-server 5000 60000");
        for (int i = 0; i < CONFIGS.size(); i++) {
            ClientConfig<?> fresh = CONFIGS.get(i).getDeclaredConstructor().newInstance();
            assertThat(fresh.getConfigName() + " " + fresh.getConnectTimeout() + " " + fresh.getResponseTimeout())
                    .as(CONFIGS.get(i).getSimpleName()).isEqualTo(defaults.get(i));
            BeanInfo info = Introspector.getBeanInfo(CONFIGS.get(i));
            for (String name : INHERITED) {
                Object form = descriptor(info, name).getValue(BeanInfoSupport.DEFAULT);
                Object element = descriptor(info, name).getReadMethod().invoke(fresh);
                assertThat(form).as(CONFIGS.get(i).getSimpleName() + "." + name).isEqualTo(element);
            }
        }
    }

    private static PropertyDescriptor descriptor(BeanInfo info, String name) {
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            if (pd.getName().equals(name)) {
                return pd;
            }
        }
        throw new AssertionError("no property " + name);
    }
}
