package org.trustload.gmssl;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLException;

/** Maps I/O failures of a GM-SSL connection to {@link TlcpException} categories; shared by every engine. */
public final class TlcpErrors {

    /** Where a failure happened. */
    public enum Phase { CONNECT, HANDSHAKE, EXCHANGE }

    private TlcpErrors() {
    }

    /** The exception for {@code e} thrown during {@code phase} towards {@code target} ({@code host:port}). */
    public static TlcpException map(Phase phase, String target, Throwable e) {
        String detail = target + ": " + chain(e);
        if (causedBy(e, SocketTimeoutException.class)) {
            String what = phase == Phase.CONNECT ? "connect" : phase == Phase.HANDSHAKE ? "handshake" : "response";
            return new TlcpException(TlcpException.TIMEOUT, what + " timed out", detail, e);
        }
        if (phase == Phase.CONNECT) {
            String why = e instanceof UnknownHostException ? "unknown host"
                    : e instanceof ConnectException ? "connection refused"
                    : e instanceof NoRouteToHostException ? "no route to host" : "cannot connect";
            return new TlcpException(TlcpException.CONNECT_ERROR, why, detail, e);
        }
        if (phase == Phase.HANDSHAKE) {
            return new TlcpException(TlcpException.HANDSHAKE_FAILED, handshakeMessage(e), detail, e);
        }
        if (e instanceof SSLException) {
            return new TlcpException(TlcpException.IO_ERROR, "TLS error: " + firstLine(e.getMessage()), detail, e);
        }
        String why = e instanceof EOFException ? "connection closed by peer"
                : e instanceof SocketException ? "connection broken" : "I/O error";
        return new TlcpException(TlcpException.IO_ERROR, why, detail, e);
    }

    /** The message of a handshake that failed because the peer speaks another protocol (or none). */
    public static final String PROTOCOL_MISMATCH = "protocol mismatch";

    /**
     * True for a handshake failure that says the peer speaks another protocol (a TLS 1.3 server for a
     * TLCP client, a TLCP-only gateway for TLS 1.3, a plain HTTP port): repeating the handshake can only
     * fail the same way.
     */
    public static boolean isProtocolMismatch(TlcpException e) {
        return TlcpException.HANDSHAKE_FAILED.equals(e.category())
                && String.valueOf(e.getMessage()).startsWith(PROTOCOL_MISMATCH);
    }

    /** A short, stable handshake message: the alert when there is one, else the kind of failure. */
    static String handshakeMessage(Throwable e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        String lower = m.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("protocol_version") || lower.contains("no appropriate protocol")
                || lower.contains("protocol mismatch") || lower.contains("wrong version number")
                || lower.contains("unsupported protocol")) {
            // an alert protocol_version either way, or our own engine's finding (bc names the versions seen)
            return PROTOCOL_MISMATCH + ": protocol version not supported by the peer";
        }
        if (lower.contains("unable to parse tls packet header")
                || lower.contains("unsupported or unrecognized ssl message")
                || lower.contains("plaintext connection") || lower.contains("does not speak tlcp")) {
            // what tongsuo-openjdk and JSSE say when the peer's bytes are not a TLS record (e.g. a TLCP-only port)
            return PROTOCOL_MISMATCH + ": the peer does not speak this protocol";
        }
        // JSSE-style messages: "Received fatal alert: handshake_failure"
        int i = lower.indexOf("fatal alert: ");
        if (i >= 0) {
            return "alert " + m.substring(i + "fatal alert: ".length()).trim();
        }
        if (lower.contains("no negotiable cipher") || lower.contains("no cipher suites in common")
                || lower.contains("no common cipher suite")) {
            return "no common cipher suite";
        }
        if (lower.contains("expired") || lower.contains("notafter") || lower.contains("validity")) {
            return "certificate expired";
        }
        if (lower.contains("pkix") || lower.contains("certification path") || lower.contains("unable to find valid")
                || lower.contains("not trusted") || lower.contains("signature check failed")) {
            return "untrusted certificate";
        }
        if (lower.contains("without answering the hello")) {
            // the bc engine: a TLS-only server closes at a TLCP hello, as does a server shedding load
            return "connection closed by peer without answering the hello";
        }
        if (causedBy(e, EOFException.class) || causedBy(e, SocketException.class)
                || lower.contains("remote host terminated") || lower.contains("closed")) {
            // e.g. a server that rejects the client certificate and drops the connection without an alert
            return "connection closed by peer during handshake";
        }
        return "handshake failure: " + rootCause(e);
    }

    /**
     * The innermost cause with a message, as {@code SimpleName: first line}, shortened: what a
     * handshake failure without a recognised alert or kind is reported with.
     */
    static String rootCause(Throwable e) {
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank() || root.getMessage() == null) {
                root = t;
            }
        }
        String text = root.getClass().getSimpleName()
                + (root.getMessage() == null ? "" : ": " + firstLine(root.getMessage()));
        return text.length() <= 160 ? text : text.substring(0, 157) + "...";
    }

    /** True when {@code type} is anywhere in the cause chain (providers wrap timeouts in SSLException). */
    static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** The exception chain, class names and messages, one line. */
    public static String chain(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null && b.length() < 2000; t = t.getCause() == t ? null : t.getCause()) {
            // our own exceptions by their simple name (TlcpAlert): the package adds nothing a reader needs
            String type = t.getClass().getName().startsWith("org.trustload.") ? t.getClass().getSimpleName()
                    : t.getClass().getName();
            b.append(b.length() == 0 ? "" : " <- ").append(type);
            if (t.getMessage() != null) {
                b.append(": ").append(firstLine(t.getMessage()));
            }
        }
        return b.toString();
    }

    /** Wraps an {@link IOException} of a phase; convenience for engines. */
    public static TlcpException io(Phase phase, String host, int port, IOException e) {
        return map(phase, host + ":" + port, e);
    }
}
