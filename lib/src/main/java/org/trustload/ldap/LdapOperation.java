package org.trustload.ldap;

import java.util.Locale;

/** The operation a request performs after connecting and binding. */
public enum LdapOperation {
    /** Only connect and bind (the bind is the measured operation). */
    BIND("bind"),
    SEARCH("search"),
    COMPARE("compare"),
    ADD("add"),
    MODIFY("modify"),
    DELETE("delete"),
    /** The "Who am I?" extended operation (RFC 4532). */
    WHOAMI("whoami");

    private final String id;

    LdapOperation(String id) {
        this.id = id;
    }

    /** The name used in JMeter properties. */
    public String id() {
        return id;
    }

    /** Parses a name such as {@code search}. */
    public static LdapOperation parse(String text) throws LdapClientException {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (LdapOperation op : values()) {
            if (op.id.equals(s)) {
                return op;
            }
        }
        throw LdapClientException.config("unknown operation '" + text + "' (expected bind, search, compare, add, modify, delete or whoami)");
    }
}
