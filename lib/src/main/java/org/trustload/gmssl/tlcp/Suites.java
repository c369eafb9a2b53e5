package org.trustload.gmssl.tlcp;

import org.trustload.gmssl.TlcpSuite;

/** The wire codes of the four TLCP suites (GB/T 38636) and what each implies. */
final class Suites {
    private Suites() {
    }

    /** The suite's two-byte code, or -1 for a suite that is not TLCP. */
    static int code(TlcpSuite s) {
        switch (s) {
            case ECDHE_SM4_CBC_SM3: return 0xE011;
            case ECC_SM4_CBC_SM3: return 0xE013;
            case ECDHE_SM4_GCM_SM3: return 0xE051;
            case ECC_SM4_GCM_SM3: return 0xE053;
            default: return -1;
        }
    }

    /** The TLCP suite of a code, or null. */
    static TlcpSuite of(int code) {
        for (TlcpSuite s : TlcpSuite.values()) {
            if (code(s) == code) {
                return s;
            }
        }
        return null;
    }

    static boolean gcm(TlcpSuite s) {
        return s == TlcpSuite.ECC_SM4_GCM_SM3 || s == TlcpSuite.ECDHE_SM4_GCM_SM3;
    }

    static boolean ecdhe(TlcpSuite s) {
        return s == TlcpSuite.ECDHE_SM4_CBC_SM3 || s == TlcpSuite.ECDHE_SM4_GCM_SM3;
    }
}
