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

    /** The engine setting that picks {@link #forProtocol} (a blank setting means it too). */
    public static final String AUTO = "auto";

    /**
     * The engine for {@code protocol} when the setting is {@value #AUTO}: {@code bc} for TLCP (pure
     * Java, Java 17 through 25); for TLS 1.3 SM {@code tongsuo} where its native library runs, else
     * {@code bgm} (Java 17 to 21).
     */
    public static TlcpEngine forProtocol(TlcpProtocol protocol) throws TlcpException {
        List<String> candidates = protocol == TlcpProtocol.TLCP ? List.of("bc") : List.of("tongsuo", "bgm");
        List<String> why = new ArrayList<>();
        for (String name : candidates) {
            TlcpEngine e;
            try {
                e = get(name);
                e.checkAvailable();
                return e;
            } catch (TlcpException x) {
                why.add(name + ": " + x.getMessage()
                        + (x.detail() == null || x.detail().equals(x.getMessage()) ? "" : " (" + x.detail() + ")"));
            }
        }
        throw new TlcpException(TlcpException.ENGINE_UNAVAILABLE, "no engine for " + protocol.label() + " runs here",
                String.join("; ", why), null);
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
