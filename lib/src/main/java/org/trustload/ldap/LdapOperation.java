package org.trustload.ldap;

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
        return Ids.parse(values(), LdapOperation::id, text, null, "operation", "operation");
    }
}
