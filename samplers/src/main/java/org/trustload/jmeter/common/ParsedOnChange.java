package org.trustload.jmeter.common;

import java.util.Arrays;
import org.trustload.common.ClientException;

/**
 * A value a sampler parses from its properties, parsed again only when one of them changed. JMeter
 * sets a sampler's properties before every sample, but a plan's literal and {@code __P} values stay
 * the same; only {@code ${...}} values may change per iteration. Profiles of the LDAP and KMS samplers
 * showed the re-parse (and the request's description) in every sample. One per sampler and thread
 * (samplers are cloned per thread): not thread-safe, not serialized.
 *
 * @param <T> the parsed value
 */
public final class ParsedOnChange<T> {

    /** Parses the value; a configuration error is a {@link ClientException}. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse() throws ClientException;
    }

    private Object[] from;
    private T value;

    /**
     * The value parsed from {@code inputs} (the property values, and anything else it depends on, e.g.
     * the config's client), reusing the last one when every input is equal; a failed parse keeps nothing.
     */
    public T get(Object[] inputs, Parser<T> parser) throws ClientException {
        if (value != null && Arrays.equals(inputs, from)) {
            return value;
        }
        clear();
        T parsed = parser.parse();
        from = inputs.clone();
        value = parsed;
        return parsed;
    }

    /** Forgets the value (a new thread or test). */
    public void clear() {
        from = null;
        value = null;
    }
}
