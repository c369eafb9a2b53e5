package org.trustload.ldap;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Parses the lower-case names users write in JMeter properties into enum constants. */
final class Ids {
    private Ids() {
    }

    /**
     * The constant whose id equals {@code text} (case-insensitive, blanks trimmed), or
     * {@code blankDefault} when the text is blank and a default exists.
     *
     * @throws LdapClientException {@code configError} naming {@code what} and the accepted names
     */
    static <E extends Enum<E>> E parse(E[] values, Function<E, String> id, String text, E blankDefault, String what,
            String setting)
            throws LdapClientException {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty() && blankDefault != null) {
            return blankDefault;
        }
        for (E v : values) {
            if (id.apply(v).equals(s)) {
                return v;
            }
        }
        throw LdapClientException.config(setting, "", "unknown " + what + " '" + text + "' (expected "
                + Arrays.stream(values).map(id).collect(Collectors.joining(", ")) + ")", null);
    }
}
