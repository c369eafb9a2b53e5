package org.trustload.gmssl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/** Finds {@link TlcpEngine}s by name through {@code META-INF/services/org.trustload.gmssl.TlcpEngine}. */
public final class TlcpEngines {

    private TlcpEngines() {
    }

    /** The engine named {@code name} (case-insensitive). */
    public static TlcpEngine get(String name) throws TlcpException {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (TlcpEngine e : load()) {
            if (e.name().equals(wanted)) {
                return e;
            }
        }
        throw new TlcpException(TlcpException.CONFIG_ERROR,
                "unknown TLCP engine '" + name + "' (installed: " + String.join(", ", names()) + ")");
    }

    /** Names of the installed engines. */
    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (TlcpEngine e : load()) {
            out.add(e.name());
        }
        return out;
    }

    private static Iterable<TlcpEngine> load() {
        // our own class loader: in JMeter, lib/ext jars are not on the thread context class loader in every thread
        return ServiceLoader.load(TlcpEngine.class, TlcpEngine.class.getClassLoader());
    }
}
