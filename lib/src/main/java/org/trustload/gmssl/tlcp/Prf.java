package org.trustload.gmssl.tlcp;

import java.nio.charset.StandardCharsets;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/** The TLCP PRF: the TLS 1.2 P_hash construction with HMAC-SM3 (GB/T 38636, Tongsuo's TLS1_PRF_SM3). */
final class Prf {
    static final byte[] MASTER_SECRET = label("master secret");
    static final byte[] KEY_EXPANSION = label("key expansion");
    static final byte[] CLIENT_FINISHED = label("client finished");
    static final byte[] SERVER_FINISHED = label("server finished");

    private Prf() {
    }

    private static byte[] label(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** PRF(secret, label, seed1 || seed2) of {@code length} bytes. */
    static byte[] prf(byte[] secret, byte[] label, byte[] seed1, byte[] seed2, int length) {
        HMac mac = new HMac(new SM3Digest());
        mac.init(new KeyParameter(secret));
        int size = mac.getMacSize();
        byte[] a = new byte[size];
        byte[] block = new byte[size];
        byte[] out = new byte[length];
        // A(1) = HMAC(secret, label || seed)
        mac.update(label, 0, label.length);
        mac.update(seed1, 0, seed1.length);
        mac.update(seed2, 0, seed2.length);
        mac.doFinal(a, 0);
        for (int off = 0; off < length; off += size) {
            mac.update(a, 0, size);
            mac.update(label, 0, label.length);
            mac.update(seed1, 0, seed1.length);
            mac.update(seed2, 0, seed2.length);
            mac.doFinal(block, 0);
            System.arraycopy(block, 0, out, off, Math.min(size, length - off));
            mac.update(a, 0, size);
            mac.doFinal(a, 0);
        }
        return out;
    }

    /** The 12-byte verify_data of a Finished message. */
    static byte[] finished(byte[] master, byte[] label, byte[] transcriptHash) {
        return prf(master, label, transcriptHash, new byte[0], 12);
    }
}
