package org.trustload.jmeter.common;

import java.io.File;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.jmeter.services.FileServer;
import org.trustload.common.ClientException;

/**
 * The one parser of element properties. Every error it throws is a configuration error
 * ({@link ClientException#CONFIG_ERROR}) whose message names the element and the property (and the
 * file, for file properties), the same text every time so reports group it:
 * {@code LDAP Connection Config 'ldaps': trustStore: file not found (/tmp/x.p12)}.
 * Secrets are never part of a message.
 */
public final class PropertyParser {
    private final Supplier<String> element;

    /** @param element how messages name the element, e.g. {@code LDAP Connection Config 'ldaps'} */
    public PropertyParser(String element) {
        this(() -> element);
    }

    /**
     * @param element how messages name the element, asked only when a message is made: a sampler's name
     *        may be a JMeter function that is evaluated again on every read
     */
    public PropertyParser(Supplier<String> element) {
        this.element = element;
    }

    /** How messages name an element: its kind and its name in the tree. */
    public static String describe(String kind, String name) {
        return kind + " '" + (name == null ? "" : name) + "'";
    }

    /** The element as messages name it. */
    public String element() {
        return element.get();
    }

    /** A configuration error about {@code property} (and {@code file}, or "") of this element. */
    public ClientException error(String property, String file, String what, Throwable cause) {
        String message = element.get() + ": " + property + ": " + what
                + (file == null || file.isEmpty() ? "" : " (" + file + ")");
        return new Named(message, cause == null ? message : message + ": " + ClientException.readable(cause), property,
                file, cause);
    }

    /**
     * Re-throws a configuration error from a client (which names only its setting, spelled like the
     * property) with this element's name in front; other failures pass unchanged.
     */
    public ClientException wrap(ClientException e) {
        if (!e.isConfigError() || e instanceof Named) {
            return e; // not a configuration error, or one that already names its element
        }
        String property = e.setting().isEmpty() ? "settings" : e.setting();
        String message = e.getMessage();
        String prefix = property + ": ";
        ClientException named = error(property, e.file(),
                message.startsWith(prefix) ? message.substring(prefix.length())
                : message, null);
        String detail = e.detail().equals(message) ? named.getMessage() : named.getMessage() + "\n" + e.detail();
        return new Named(named.getMessage(), detail, property, e.file(), e);
    }

    /** An integer in [min, max]; blank means {@code blankDefault}. */
    public int integer(String property, String value, int blankDefault, int min, int max) throws ClientException {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            return blankDefault;
        }
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw error(property, "", "not a whole number: '" + v + "'", null);
        }
        if (n < min || n > max) {
            throw error(property, "", n + " is out of range " + min + "-" + max, null);
        }
        return n;
    }

    /** A timeout in milliseconds, at least 1; blank means {@code blankDefault}. */
    public int timeoutMs(String property, String value, int blankDefault) throws ClientException {
        return integer(property, value, blankDefault, 1, Integer.MAX_VALUE);
    }

    /** One of {@code allowed} (case-insensitive, returned lower-case); blank means {@code blankDefault}. */
    public String oneOf(String property, String value, String blankDefault, String... allowed) throws ClientException {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.isEmpty() && blankDefault != null) {
            return blankDefault;
        }
        for (String a : allowed) {
            if (a.equals(v)) {
                return a;
            }
        }
        throw error(property, "",
                "unknown value '" + value + "' (expected " + String.join(", ", Arrays.asList(allowed)) + ")",
                null);
    }

    /** A value that must not be blank. */
    public String required(String property, String value) throws ClientException {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            throw error(property, "", "is empty", null);
        }
        return v;
    }

    /**
     * A readable file, resolved like JMeter resolves the file names of its own elements: a relative
     * path is taken from the directory of the test plan. Blank gives null unless {@code required}.
     */
    public File file(String property, String value, boolean required) throws ClientException {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            if (required) {
                throw error(property, "", "no file given", null);
            }
            return null;
        }
        File f = resolve(v);
        if (!f.exists()) {
            throw error(property, f.getPath(), "file not found", null);
        }
        if (!f.isFile() || !f.canRead()) {
            throw error(property, f.getPath(), "not a readable file", null);
        }
        if (f.length() == 0) {
            throw error(property, f.getPath(), "file is empty", null);
        }
        return f;
    }

    /** A path resolved like {@link #file} but not checked (a socket, a file to be written). */
    public static File resolve(String path) {
        // As FileServer resolves a CSV Data Set's file: "~/x" is explicitly relative to the plan; any other
        // relative name is taken as is when it exists from the working directory, else from the plan's.
        File f = new File(FileServer.resolveBaseRelativeName(path));
        if (f.isAbsolute() || f.exists()) {
            return f;
        }
        String base = FileServer.getFileServer().getBaseDir();
        return base == null ? f : new File(base, f.getPath());
    }

    /** A secret: returned as is ("" for null), never echoed in any message. */
    public String secret(String value) {
        return value == null ? "" : value;
    }

    /** A configuration error whose message already names its element and property. */
    private static final class Named extends ClientException {
        private static final long serialVersionUID = 1L;

        Named(String message, String detail, String property, String file, Throwable cause) {
            super(CONFIG_ERROR, message, detail, property, file, cause);
        }
    }
}
