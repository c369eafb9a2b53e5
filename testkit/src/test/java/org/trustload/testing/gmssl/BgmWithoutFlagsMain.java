package org.trustload.testing.gmssl;

import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;

/** Child JVM of {@link BgmEngineTest}: started without bgm's JVM options, prints what the engine says. */
public final class BgmWithoutFlagsMain {
    private BgmWithoutFlagsMain() {
    }

    public static void main(String[] args) {
        try {
            TlcpEngines.get("bgm").checkAvailable();
            System.out.println("AVAILABLE");
        } catch (TlcpException e) {
            System.out.println(e.category() + "|" + e.getMessage() + "|" + e.detail());
        }
    }
}
