package org.trustload.ldap;

/** How a TLS client decides whether to trust the server's certificate. */
public enum TrustMode {
    /** The JVM's default trust store (cacerts or {@code javax.net.ssl.trustStore}). */
    JVM_DEFAULT("jvm-default"),
    /** A trust store file given in the settings. */
    TRUST_STORE("trust-store"),
    /** Accept any certificate. Only for tests against servers you own; chosen explicitly, never by default. */
    TRUST_ALL("trust-all");

    private final String id;

    TrustMode(String id) {
        this.id = id;
    }

    /** The name used in JMeter properties. */
    public String id() {
        return id;
    }

    /** Parses a name such as {@code trust-store}; blank means {@link #JVM_DEFAULT}. */
    public static TrustMode parse(String text) throws LdapClientException {
        return Ids.parse(values(), TrustMode::id, text, JVM_DEFAULT, "trust mode", "trustMode");
    }
}
