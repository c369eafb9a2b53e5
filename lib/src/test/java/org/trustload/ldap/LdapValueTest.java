package org.trustload.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LdapValueTest {

    @Test
    void textWithoutABracketIsSentAsItIs() throws Exception {
        LdapValue v = LdapValue.of("filter", " (uid=fulano1) ");
        assertThat(v.varies()).isFalse();
        assertThat(v.next()).isEqualTo("(uid=fulano1)");
        LdapRequest r = LdapRequest.builder(LdapOperation.SEARCH).filter("(uid=fulano1)").build(LdapValue::of);
        assertThat(r.draw()).isSameAs(r);
    }

    @Test
    void aRandomRangeDrawsWithinItsBoundsAndASequentialOneCountsAndWraps() throws Exception {
        LdapValue random = LdapValue.of("filter", "(uid=fulano[1-10000])");
        assertThat(random.varies()).isTrue();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String f = random.next();
            assertThat(f).matches("\\(uid=fulano\\d+\\)");
            int n = Integer.parseInt(f.replaceAll("\\D", ""));
            assertThat(n).isBetween(1, 10000);
            seen.add(f);
        }
        assertThat(seen).hasSizeGreaterThan(150);
        LdapValue seq = LdapValue.of("entryDn", "cn=fulano[1:3],dc=testeperformance");
        assertThat(new String[] {seq.next(), seq.next(), seq.next(), seq.next()})
                .containsExactly("cn=fulano1,dc=testeperformance", "cn=fulano2,dc=testeperformance",
                        "cn=fulano3,dc=testeperformance", "cn=fulano1,dc=testeperformance");
    }

    @Test
    void aDrawnRequestHasFixedValuesAndTheTemplateKeepsThePattern() throws Exception {
        LdapRequest r = LdapRequest.builder(LdapOperation.SEARCH).baseDn("ou=org[1:2],dc=x").filter("(cn=u[5:6])")
                .build(LdapValue::of);
        assertThat(r.varies()).isTrue();
        LdapRequest first = r.draw();
        assertThat(first.filter()).isEqualTo("(cn=u5)");
        assertThat(first.baseDn()).isEqualTo("ou=org1,dc=x");
        assertThat(first.varies()).isFalse();
        assertThat(r.draw().filter()).isEqualTo("(cn=u6)");
        assertThat(r.filter()).isEqualTo("(cn=u[5:6])");
        // build() takes every value literally
        assertThat(LdapRequest.builder(LdapOperation.SEARCH).filter("(cn=u[5:6])").build().draw().filter())
                .isEqualTo("(cn=u[5:6])");
    }

    @Test
    void aBadPatternIsAConfigurationErrorOfItsProperty() {
        assertThatThrownBy(() -> LdapValue.of("filter", "(cn=[1-x])")).isInstanceOf(LdapClientException.class)
                .satisfies(e -> {
                    LdapClientException x = (LdapClientException) e;
                    assertThat(x.isConfigError()).isTrue();
                    assertThat(x.setting()).isEqualTo("filter");
                    assertThat(x.getMessage()).contains("is not a value pattern", "a literal [ is written [[");
                });
    }
}
