package org.trustload.ldap;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

import java.util.Locale;
import org.trustload.common.ClientException;

/**
 * A failed LDAP request: a {@link ClientException} whose category is the LDAP result code name in
 * camelCase ({@code invalidCredentials}, {@code connectError}) or {@code configError}, whose message
 * is stable ({@code LDAP 91 connectError: connection refused}) and whose detail is one readable cause
 * (target, server diagnostic, matched DN).
 */
public final class LdapClientException extends ClientException {
    private static final long serialVersionUID = 1L;

    /** Category of a request that was never sent because its settings are wrong. */
    public static final String CONFIG_ERROR = ClientException.CONFIG_ERROR;

    /** Causes after which the same connect can only fail the same way (not load, not a timeout). */
    private static final java.util.Set<String> DEFINITIVE = java.util.Set.of("connection refused", "unknown host",
            "no route to host", "no such socket", "TLS: server certificate not trusted",
            "TLS: certificate does not match the host name");

    private final int resultCode;
    private final String reason;

    private LdapClientException(String category, int resultCode, String message, String detail, String setting,
            String file, Throwable cause) {
        this(category, resultCode, message, detail, setting, file, cause, null);
    }

    private LdapClientException(String category, int resultCode, String message, String detail, String setting,
            String file, Throwable cause, String reason) {
        super(category, message, detail, setting, file, cause);
        this.resultCode = resultCode;
        this.reason = reason;
    }

    /**
     * True for a connect failure that retrying cannot cure while the settings stay the same:
     * connection refused, unknown host, no such socket, untrusted certificate, wrong host name.
     * Timeouts and dropped connections are not: they come and go with load.
     */
    public boolean isDefinitiveConnectFailure() {
        return reason != null && DEFINITIVE.contains(reason);
    }

    /** True when the server's port or socket refused the connect (nothing listens there now). */
    public boolean isRefusal() {
        return "connection refused".equals(reason) || "no such socket".equals(reason);
    }

    /** A bad setting: the request is never sent. The message says what is wrong. */
    public static LdapClientException config(String message) {
        return config("", "", message, null);
    }

    /** A bad setting caused by an exception (e.g. an unreadable trust store). */
    public static LdapClientException config(String message, Throwable cause) {
        return config("", "", message, cause);
    }

    /**
     * A bad setting, naming the setting (the config element's property name) and the file it names.
     * The message must stay the same for every occurrence; the cause goes to the detail.
     */
    public static LdapClientException config(String setting, String file, String message, Throwable cause) {
        return new LdapClientException(CONFIG_ERROR, -1, message,
                cause == null ? message : message + ": " + readable(cause), setting, file, cause);
    }

    /** A bad setting found from the server's answers: {@code detail} says what to do about it. */
    public static LdapClientException config(String setting, String message, String detail) {
        return new LdapClientException(CONFIG_ERROR, -1, message, detail, setting, "", null);
    }

    /**
     * An answer the server gave successfully but that breaks a rule of the request (e.g. fewer entries than
     * expected: {@link EntryRule}); {@code category} is the response code, the connection stays usable.
     */
    public static LdapClientException rule(String category, String message, String detail) {
        return new LdapClientException(category, -1, message, detail, "", "", null);
    }

    /** A client-side failure with a given result code, a stable reason and a detail. */
    public static LdapClientException of(ResultCode code, String reason, String detail) {
        return new LdapClientException(codeName(code), code.intValue(), stableMessage(code) + ": " + reason, detail,
                "", "", null, reason);
    }

    /** A client-side failure with a given result code and detail (e.g. a missing socket file). */
    public static LdapClientException of(ResultCode code, String detail) {
        return new LdapClientException(codeName(code), code.intValue(), stableMessage(code), detail, "", "", null);
    }

    /** Maps an UnboundID exception (server result or client-side failure). */
    public static LdapClientException from(LDAPException e) {
        return from(e, "");
    }

    /**
     * Maps an UnboundID exception; {@code target} ({@code ldap://host:port}) starts the detail. The
     * message tells apart the causes a user fixes differently: connection refused, unknown host, TLS
     * trust, host name, wrong credentials.
     */
    public static LdapClientException from(LDAPException e, String target) {
        ResultCode code = e.getResultCode();
        String reason = reason(e);
        StringBuilder detail = new StringBuilder();
        if (!target.isEmpty()) {
            detail.append(target).append(": ");
        }
        if (e.getDiagnosticMessage() != null && !e.getDiagnosticMessage().isEmpty()) {
            detail.append(e.getDiagnosticMessage());
        } else if (e.getCause() != null) {
            detail.append(readable(e.getCause()));
        } else {
            detail.append(shortMessage(e));
        }
        if (e.getMatchedDN() != null && !e.getMatchedDN().isEmpty()) {
            detail.append("; matched DN: ").append(e.getMatchedDN());
        }
        String message = stableMessage(code) + (reason == null ? "" : ": " + reason);
        return new LdapClientException(codeName(code), code.intValue(), message, detail.toString(), "", "", e, reason);
    }

    /** A stable phrase for client-side causes users fix differently, or null. */
    private static String reason(LDAPException e) {
        if (e.getResultCode() == ResultCode.INVALID_CREDENTIALS) {
            return "wrong DN or password";
        }
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof javax.net.ssl.SSLException) {
                String m = String.valueOf(c.getMessage());
                if (m.contains("No subject alternative") || m.contains("hostname") || m.contains("host name")) {
                    return "TLS: certificate does not match the host name";
                }
                if (m.contains("PKIX") || m.contains("certification path") || m.contains("trust")) {
                    return "TLS: server certificate not trusted";
                }
                return "TLS handshake failed";
            }
            if (c.getCause() == c) {
                break;
            }
        }
        String m = String.valueOf(e.getMessage());
        if (m.contains("hostname") && m.contains("certificate")) {
            return "TLS: certificate does not match the host name";
        }
        if (e.getResultCode() == ResultCode.CONNECT_ERROR || e.getResultCode() == ResultCode.SERVER_DOWN) {
            String failure = connectFailure(e);
            if (failure == null && e.getResultCode() == ResultCode.CONNECT_ERROR && m.contains("timeout")) {
                return "connect timed out"; // UnboundID's own connect timeout, not a SocketTimeoutException
            }
            return failure;
        }
        if (e.getResultCode() == ResultCode.TIMEOUT) {
            return "no response within the response timeout";
        }
        return null;
    }

    /** UnboundID's message without the nested exception dump it appends. */
    private static String shortMessage(LDAPException e) {
        String m = e.getExceptionMessage();
        int nested = m.indexOf("LDAPException(");
        return nested > 0 ? m.substring(0, nested).strip() : m;
    }

    /** The LDAP result code, or -1 for {@link #CONFIG_ERROR}. */
    public int resultCode() {
        return resultCode;
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
