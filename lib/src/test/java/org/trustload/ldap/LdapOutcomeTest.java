package org.trustload.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.Control;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LdapOutcomeTest {

    private static SearchResultEntry entry(String dn, Attribute... attributes) {
        return new SearchResultEntry(dn, attributes, new Control[0]);
    }

    @Test
    void theBodyIsTheSummaryThenTheEntriesInLdifAsUtf8() {
        SearchResultEntry e = entry("cn=José,dc=testeperformance", new Attribute("cn", "José"),
                new Attribute("uid", "jose"), new Attribute("userPassword", new byte[] {0, 1, 2}));
        LdapOutcome o = new LdapOutcome(LdapOperation.SEARCH, ResultCode.SUCCESS, List.of(e), 1, "search: 1 entry — ç");

        byte[] body = o.renderUtf8(10);

        String text = new String(body, StandardCharsets.UTF_8);
        assertThat(text).isEqualTo("search: 1 entry — ç\n\n" + e.toLDIFString());
        assertThat(o.render(10)).isEqualTo(text);
        // non-ASCII and binary values are base64 in LDIF, as UnboundID writes them
        assertThat(text).contains("cn:: ").contains("userPassword:: AAEC");
    }

    @Test
    void entriesBeyondTheLimitAreCountedNotShown() {
        SearchResultEntry a = entry("cn=a,dc=x", new Attribute("cn", "a"));
        SearchResultEntry b = entry("cn=b,dc=x", new Attribute("cn", "b"));
        LdapOutcome o =
                new LdapOutcome(LdapOperation.SEARCH, ResultCode.SUCCESS, List.of(a, b), 5, "search: 5 entries");

        assertThat(o.render(1))
                .isEqualTo("search: 5 entries\n\n" + a.toLDIFString() + "\n# 4 more entries not shown\n");
        assertThat(o.render(0)).isEqualTo("search: 5 entries\n");
    }
}
