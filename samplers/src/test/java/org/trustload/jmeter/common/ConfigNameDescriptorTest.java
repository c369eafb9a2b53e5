package org.trustload.jmeter.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.trustload.jmeter.gmssl.TlcpClientConfig;
import org.trustload.jmeter.kms.KmsClientConfig;
import org.trustload.jmeter.ldap.LdapConnectionConfig;
import org.trustload.jmeter.pki.SignatureServerConfig;

/**
 * "Config name" is a property of every config element's common base. Each form must still describe
 * it in its own words, whichever BeanInfo JMeter built last (the descriptor of an inherited property is
 * one object shared by all subclasses; BeanInfoHelper keeps copies per element).
 */
class ConfigNameDescriptorTest {

    @Test
    void everyConfigDescribesItsOwnConfigNameWhateverTheOrderTheFormsWereBuilt() throws Exception {
        Map<Class<?>, String> own = Map.of(LdapConnectionConfig.class, "LDAP Requests", KmsClientConfig.class,
                "KMS Requests", TlcpClientConfig.class, "TLCP Requests", SignatureServerConfig.class, "CAdES Sign");
        List<Class<?>> order = List.of(LdapConnectionConfig.class, KmsClientConfig.class, TlcpClientConfig.class,
                SignatureServerConfig.class);
        for (int round = 0; round < order.size(); round++) {
            for (int i = 0; i < order.size(); i++) { // each class built last once
                Introspector.getBeanInfo(order.get((i + round) % order.size()));
            }
            for (Class<?> c : order) {
                assertThat(description(Introspector.getBeanInfo(c))).as(c.getSimpleName()).contains(own.get(c));
            }
        }
    }

    private static String description(BeanInfo info) {
        for (PropertyDescriptor pd : info.getPropertyDescriptors()) {
            if (pd.getName().equals("configName")) {
                return pd.getShortDescription();
            }
        }
        return "";
    }
}
