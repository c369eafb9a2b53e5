package org.trustload.ldap;

import com.unboundid.util.ValuePattern;
import java.text.ParseException;

/**
 * A value of an LDAP request that may vary per request: a filter, base DN or entry DN written as a value
 * pattern, in the syntax of the UnboundID SDK's {@link ValuePattern} (what its {@code searchrate},
 * {@code modrate} and {@code authrate} tools take). {@code (uid=user.[1-1000])} draws a random number from 1
 * to 1000 for every request; {@code [1:1000]} counts up and wraps; {@code [0-99%00]} pads; {@code [[} is a
 * literal {@code [}; files, UUIDs, timestamps and back-references as the SDK documents. Text without
 * {@code [} is sent as it is.
 *
 * <p>Thread-safe (the SDK's patterns are): one instance serves every thread of a test, so a sequential
 * range counts across threads, as searchrate's does.
 */
public final class LdapValue {

    /** Where a request gets its patterns: compiled once and shared per test ({@link LdapConnections}). */
    @FunctionalInterface
    public interface Source {
        /**
         * The value of {@code text}.
         *
         * @param property the setting it comes from, named in a configuration error
         */
        LdapValue value(String property, String text) throws LdapClientException;
    }

    private final String text;
    private final ValuePattern pattern;

    private LdapValue(String text, ValuePattern pattern) {
        this.text = text;
        this.pattern = pattern;
    }

    /**
     * The value of {@code text}: a pattern when it holds {@code [}; a bad pattern is a configuration error of
     * {@code property}.
     */
    public static LdapValue of(String property, String text) throws LdapClientException {
        String t = text == null ? "" : text.trim();
        if (t.indexOf('[') < 0) {
            return new LdapValue(t, null);
        }
        try {
            return new LdapValue(t, new ValuePattern(t));
        } catch (ParseException e) {
            throw LdapClientException.config(property, "", "'" + t + "' is not a value pattern: " + e.getMessage()
                    + " (a literal [ is written [[)", e);
        }
    }

    /** As written (the pattern, not a drawn value). */
    public String text() {
        return text;
    }

    /** Whether requests get different values. */
    public boolean varies() {
        return pattern != null;
    }

    /** The value of the next request. */
    public String next() {
        return pattern == null ? text : pattern.nextValue();
    }

    @Override
    public String toString() {
        return text;
    }
}
