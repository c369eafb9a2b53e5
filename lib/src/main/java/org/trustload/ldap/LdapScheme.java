package org.trustload.ldap;

/** How the client reaches the directory: TCP, TLS from the first byte, or a Unix domain socket. */
public enum LdapScheme {
    /** Plain TCP, optionally upgraded with StartTLS. */
    LDAP("ldap", 389),
    /** TLS from the first byte. */
    LDAPS("ldaps", 636),
    /** LDAP over a Unix domain socket (OpenLDAP's {@code ldapi://}). */
    LDAPI("ldapi", 0);

    private final String id;
    private final int defaultPort;

    LdapScheme(String id, int defaultPort) {
        this.id = id;
        this.defaultPort = defaultPort;
    }

    /** The lower-case name used in URLs and JMeter properties. */
    public String id() {
        return id;
    }

    /** The IANA port of the scheme, 0 for a Unix socket. */
    public int defaultPort() {
        return defaultPort;
    }

    /**
     * Parses a scheme name such as {@code ldaps} (case-insensitive, surrounding blanks ignored).
     *
     * @throws LdapClientException with category {@code configError} for anything else
     */
    public static LdapScheme parse(String text) throws LdapClientException {
        return Ids.parse(values(), LdapScheme::id, text, null, "scheme", "scheme");
    }
}
