package org.trustload.ldap;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

import java.util.Locale;

/**
 * A failed LDAP request, reduced to what a load-test result needs: a stable category (the LDAP
 * result code name in camelCase, such as {@code invalidCredentials}, or {@code configError} for a
 * request that could not be built), a stable one-line message that groups well in reports, and
 * the variable detail (server diagnostic, host, port) kept apart.
 */
public final class LdapClientException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Category of a request that was never sent because its settings are wrong. */
    public static final String CONFIG_ERROR = "configError";

    private final String category;
    private final int resultCode;
    private final String detail;

    private LdapClientException(String category, int resultCode, String message, String detail, Throwable cause) {
        super(message, cause);
        this.category = category;
        this.resultCode = resultCode;
        this.detail = detail == null ? "" : detail;
    }

    /** A bad setting: the request is never sent. The message names the setting and says what is wrong. */
    public static LdapClientException config(String message) {
        return new LdapClientException(CONFIG_ERROR, -1, message, message, null);
    }

    /** A bad setting caused by an exception (e.g. an unreadable trust store). */
    public static LdapClientException config(String message, Throwable cause) {
        return new LdapClientException(CONFIG_ERROR, -1, message, message + ": " + cause, cause);
    }

    /** A client-side failure with a given result code and detail (e.g. a missing socket file). */
    public static LdapClientException of(ResultCode code, String detail) {
        return new LdapClientException(codeName(code), code.intValue(), stableMessage(code), detail, null);
    }

    /** Maps an UnboundID exception (server result or client-side failure). */
    public static LdapClientException from(LDAPException e) {
        ResultCode code = e.getResultCode();
        StringBuilder detail = new StringBuilder();
        detail.append(e.getExceptionMessage());
        if (e.getMatchedDN() != null && !e.getMatchedDN().isEmpty()) {
            detail.append("\nmatched DN: ").append(e.getMatchedDN());
        }
        return new LdapClientException(codeName(code), code.intValue(), stableMessage(code), detail.toString(), e);
    }

    /** The stable category: an LDAP result code name such as {@code noSuchObject}, or {@code configError}. */
    public String category() {
        return category;
    }

    /** The LDAP result code, or -1 for {@link #CONFIG_ERROR}. */
    public int resultCode() {
        return resultCode;
    }

    /** The variable part: diagnostic message, matched DN, host and port, cause. */
    public String detail() {
        return detail;
    }

    /** True when the connection that produced this can no longer be trusted and must be reopened. */
    public boolean connectionLost() {
        ResultCode code = ResultCode.valueOf(resultCode);
        return code == ResultCode.SERVER_DOWN || code == ResultCode.CONNECT_ERROR || code == ResultCode.TIMEOUT
                || code == ResultCode.DECODING_ERROR || code == ResultCode.ENCODING_ERROR
                || code == ResultCode.LOCAL_ERROR || code == ResultCode.UNAVAILABLE || code == ResultCode.BUSY
                || code == ResultCode.PROTOCOL_ERROR;
    }

    /** "LDAP 49 invalidCredentials": the same text for every occurrence, so reports group it. */
    static String stableMessage(ResultCode code) {
        return "LDAP " + code.intValue() + " " + codeName(code);
    }

    /**
     * The camelCase name of a result code, as RFC 4511 writes them ({@code invalidCredentials},
     * {@code noSuchObject}) and for UnboundID's client-side codes ({@code connectError},
     * {@code serverDown}, {@code timeout}, {@code filterError}).
     */
    public static String codeName(ResultCode code) {
        String name = code.getName();
        StringBuilder out = new StringBuilder(name.length());
        boolean upper = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ' ' || c == '-' || c == '_') {
                upper = out.length() > 0;
            } else if (upper) {
                out.append(Character.toUpperCase(c));
                upper = false;
            } else {
                out.append(out.length() == 0 ? Character.toLowerCase(c) : c);
            }
        }
        String s = out.toString();
        // RFC 4511 spells these with capitals that the plain conversion loses.
        switch (s.toLowerCase(Locale.ROOT)) {
            case "invaliddnsyntax":
                return "invalidDNSyntax";
            case "notallowedonrdn":
                return "notAllowedOnRDN";
            case "saslbindinprogress":
                return "saslBindInProgress";
            default:
                return s;
        }
    }
}
