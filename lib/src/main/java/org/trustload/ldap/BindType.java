package org.trustload.ldap;

/** Which bind the client sends after connecting. */
public enum BindType {
    /** No bind request at all: the session stays anonymous. */
    NONE("none"),
    /** An explicit anonymous simple bind (empty DN and password), as the published reference script does. */
    ANONYMOUS("anonymous"),
    /** A simple bind with a DN and a password. */
    SIMPLE("simple"),
    /** SASL EXTERNAL: the identity comes from the TLS client certificate or the Unix socket's peer credentials. */
    SASL_EXTERNAL("sasl-external");

    private final String id;

    BindType(String id) {
        this.id = id;
    }

    /** The name used in JMeter properties. */
    public String id() {
        return id;
    }

    /** Parses a name such as {@code simple}; blank means {@link #NONE}. */
    public static BindType parse(String text) throws LdapClientException {
        return Ids.parse(values(), BindType::id, text, NONE, "bind type", "bindType");
    }
}
