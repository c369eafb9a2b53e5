package org.trustload.ldap;

import com.unboundid.ldap.sdk.SearchScope;

import java.util.Locale;

/** Search scope names as users write them ({@code base}, {@code one}, {@code sub}). */
public final class SearchScopes {
    private SearchScopes() {
    }

    /** Parses {@code base}, {@code one}/{@code onelevel}, {@code sub}/{@code subtree}; blank means sub. */
    public static SearchScope parse(String text) throws LdapClientException {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "base":
                return SearchScope.BASE;
            case "one":
            case "onelevel":
                return SearchScope.ONE;
            case "":
            case "sub":
            case "subtree":
                return SearchScope.SUB;
            default:
                throw LdapClientException.config("scope", "",
                        "unknown search scope '" + text + "' (expected base, one or sub)", null);
        }
    }
}
