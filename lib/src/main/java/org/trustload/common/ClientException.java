package org.trustload.common;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Set;

/**
 * The one failure type every TrustLoad client throws, reduced to what a load-test result needs:
 * <ul>
 * <li>a stable {@link #category()} (the sample's response code, e.g. {@code connectError},
 * {@code invalidCredentials}, {@link #CONFIG_ERROR});</li>
 * <li>a stable one-line {@link #getMessage() message} that groups well in a report's error table and
 * still tells apart what a user fixes differently (connection refused, unknown host, no such socket,
 * TLS trust, wrong password);</li>
 * <li>the variable {@link #detail()}: one readable cause, never a nested exception dump and never a
 * secret;</li>
 * <li>for a configuration error, the {@link #setting()} and the {@link #file()} it is about, so the
 * element can name the property and the file.</li>
 * </ul>
 * Protocol clients subclass it to add what only they know (an LDAP result code); callers only need
 * this type.
 */
public class ClientException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Category of a request that was never sent because a setting is wrong. */
    public static final String CONFIG_ERROR = "configError";
    /** Category of a connection that could not be opened (refused, unknown host, no socket, TLS). */
    public static final String CONNECT_ERROR = "connectError";

    private final String category;
    private final String detail;
    private final String setting;
    private final String file;

    /**
     * @param category stable response code
     * @param message  stable one-line message (no host, port, id or time in it)
     * @param detail   variable part, one readable cause; null means the message
     * @param setting  for a configuration error, the setting at fault (the element's property name), else ""
     * @param file     the file the setting names, else ""
     * @param cause    kept for logs and debugging only
     */
    protected ClientException(String category, String message, String detail, String setting, String file,
            Throwable cause) {
        super(bounded(message, MAX_MESSAGE), cause);
        this.category = category;
        this.detail = bounded(detail == null || detail.isEmpty() ? message : detail, MAX_DETAIL);
        this.setting = setting == null ? "" : setting;
        this.file = bounded(file == null ? "" : file, MAX_MESSAGE);
    }

    /** The longest message kept: a message quotes what a user typed, which may be a megabyte (a wrong property). */
    public static final int MAX_MESSAGE = 300;
    /** The longest detail kept: one readable cause, not the value it is about. */
    public static final int MAX_DETAIL = 2000;

    /**
     * {@code text} cut to {@code max} characters, saying how long it was: the same text always gives the same
     * result, so a message stays stable. Every message and detail goes through it.
     */
    public static String bounded(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        String tail = "... (" + text.length() + " characters)";
        return text.substring(0, Math.max(0, max - tail.length())) + tail;
    }

    /** A failure of the given category; detail is one readable cause. */
    public ClientException(String category, String message, String detail, Throwable cause) {
        this(category, message, detail, "", "", cause);
    }

    /** A configuration error: {@code message} says what is wrong with {@code setting} (and {@code file}). */
    public static ClientException config(String setting, String file, String message, Throwable cause) {
        return new ClientException(CONFIG_ERROR, message, cause == null ? message : message + ": " + readable(cause),
                setting, file, cause);
    }

    /** The stable category: the sample's response code. */
    public String category() {
        return category;
    }

    /** The variable part: one readable cause. */
    public String detail() {
        return detail;
    }

    /** True for a setting that is wrong: retrying the same request cannot succeed. */
    public boolean isConfigError() {
        return CONFIG_ERROR.equals(category);
    }

    /** The setting (property name) a configuration error is about, or "". */
    public String setting() {
        return setting;
    }

    /** The file a configuration error is about, or "". */
    public String file() {
        return file;
    }

    /**
     * One readable line for a cause chain: the innermost message that says something, with the
     * exception's simple name where the message alone is unclear, e.g.
     * {@code Connection refused (ConnectException)}. Never a stack trace or a nested {@code toString}.
     */
    public static String readable(Throwable t) {
        if (t == null) {
            return "";
        }
        Throwable best = t;
        Set<Throwable> seen = new HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) {
                best = c;
            }
        }
        String msg = best.getMessage() == null ? "" : best.getMessage().strip();
        // Messages of wrapping exceptions often repeat the inner one as "pkg.Class: text".
        int nested = msg.lastIndexOf("Exception: ");
        if (nested >= 0) {
            msg = msg.substring(nested + "Exception: ".length());
        }
        int newline = msg.indexOf('\n');
        if (newline >= 0) {
            msg = msg.substring(0, newline).strip();
        }
        String name = best.getClass().getSimpleName();
        return msg.isEmpty() ? name : msg + " (" + name + ")";
    }

    /**
     * What kind of connect failure {@code t} is, as a stable phrase: {@code connection refused},
     * {@code unknown host}, {@code no route to host}, {@code connect timed out}; null when the cause
     * chain holds none of them.
     */
    public static String connectFailure(Throwable t) {
        Set<Throwable> seen = new HashSet<>();
        String vague = null; // a ConnectException that does not say why; java.net.http wraps the one that does
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c instanceof UnknownHostException) {
                return "unknown host";
            }
            if (c instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (c instanceof ConnectException) {
                String m = String.valueOf(c.getMessage()).toLowerCase(java.util.Locale.ROOT);
                if (m.contains("refused")) {
                    return "connection refused";
                }
                if (m.contains("timed out")) {
                    return "connect timed out";
                }
                vague = "connection failed";
                continue;
            }
            if (c instanceof SocketTimeoutException) {
                return "connect timed out";
            }
            if (c instanceof java.net.SocketException
                    && String.valueOf(c.getMessage()).toLowerCase(java.util.Locale.ROOT)
                            .contains("connection refused")) {
                return "connection refused"; // junixsocket: a Unix socket file nobody listens on (a server that died)
            }
            if (vague != null && c instanceof java.nio.channels.ClosedChannelException) {
                // java.net.http (Java 17) reports a refused connect as ConnectException(null) over this
                return "connection refused";
            }
        }
        return vague;
    }
}
