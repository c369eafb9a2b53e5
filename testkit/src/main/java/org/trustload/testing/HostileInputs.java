package org.trustload.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * The generated corpus of bad input for the elements' tables: every property, {@code -J} value and file name a user
 * types may be empty, huge, malformed or hostile. Each entry has a name for the test's display. What an element must
 * do with any of them: one clear error (a configuration error naming the property, or a failed sample with a stable
 * code), never a stack trace, a hang or a secret echoed back; a value it accepts must work.
 */
public final class HostileInputs {

    /** One input: what it is, and the text. */
    public record Input(String name, String value) {
        @Override
        public String toString() {
            return name;
        }
    }

    private HostileInputs() {
    }

    /** The corpus: empty and blank, huge, malformed numbers and patterns, injections, traversal, control characters. */
    public static List<Input> corpus() {
        List<Input> c = new ArrayList<>();
        c.add(new Input("empty", ""));
        c.add(new Input("blank", "   "));
        c.add(new Input("huge (1 MiB)", "a".repeat(1 << 20)));
        c.add(new Input("long line of digits", "9".repeat(400)));
        c.add(new Input("negative", "-1"));
        c.add(new Input("int overflow", "2147483648"));
        c.add(new Input("long overflow", "99999999999999999999999"));
        c.add(new Input("not a number", "NaN"));
        c.add(new Input("float", "1e309"));
        c.add(new Input("CRLF header injection", "value\r\nX-Injected: 1\r\n\r\nbody"));
        c.add(new Input("NUL byte", "a\u0000b"));
        c.add(new Input("control characters", "\u0007\u001b[2J\u007f"));
        c.add(new Input("path traversal", "../../../../../../etc/passwd"));
        c.add(new Input("absolute system path", "/etc/shadow"));
        c.add(new Input("a directory", "/tmp"));
        c.add(new Input("device", "/dev/zero"));
        c.add(new Input("JMeter function", "${__P(user.home)}${__groovy(1+1)}"));
        c.add(new Input("LDAP filter injection", "*)(uid=*))(|(uid=*"));
        c.add(new Input("unbalanced parentheses", "(((((((("));
        c.add(new Input("value pattern, huge range", "(uid=fulano[1-99999999999999999999])"));
        c.add(new Input("value pattern, reversed range", "(uid=fulano[9-1])"));
        c.add(new Input("value pattern, unclosed", "(uid=fulano[1-"));
        c.add(new Input("value pattern, nested", "(uid=[[1-2]-[3-4]])"));
        c.add(new Input("URL with credentials", "http://user:S3cret@127.0.0.1:1/"));
        c.add(new Input("URL scheme file", "file:///etc/passwd"));
        c.add(new Input("unicode, right-to-left", "\u202Eevil\u202C"));
        c.add(new Input("surrogate half", "\uD800"));
        c.add(new Input("JSON breaking", "\"},{\"injected\":true,\"x\":\""));
        c.add(new Input("XML breaking", "]]><!ENTITY x SYSTEM \"file:///etc/passwd\">"));
        return c;
    }
}
