package org.trustload.harness.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.harness.HarnessException;

/** The {@code key=value} arguments of the benches and fixtures: one reading, the last of a key wins. */
public final class KeyValues {

    private KeyValues() {
    }

    /** The arguments as a map; words without {@code =} are left out. */
    public static Map<String, String> parse(List<String> args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq > 0) {
                out.put(a.substring(0, eq), a.substring(eq + 1));
            }
        }
        return out;
    }

    /** {@code args} when each is {@code key=value}; a usage error otherwise. */
    public static List<String> check(List<String> args) throws HarnessException {
        for (String a : args) {
            if (a.indexOf('=') <= 0) {
                throw HarnessException.usage("expected key=value, not '" + a + "' (./trustload help bench)");
            }
        }
        return args;
    }

    /** Removes every {@code key=value} of {@code key} from {@code args} and returns the last value, or {@code def}. */
    public static String take(List<String> args, String key, String def) {
        String value = parse(args.stream().filter(a -> a.startsWith(key + "=")).toList()).getOrDefault(key, def);
        args.removeIf(a -> a.startsWith(key + "="));
        return value;
    }
}
