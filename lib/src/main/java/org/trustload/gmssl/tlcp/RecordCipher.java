package org.trustload.gmssl.tlcp;

import java.security.SecureRandom;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.engines.SM4Engine;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.modes.GCMBlockCipher;
import org.bouncycastle.crypto.modes.GCMModeCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * The protection of one direction's records after ChangeCipherSpec: SM4-CBC with HMAC-SM3
 * (MAC-then-encrypt, a random explicit IV per record, as TLS 1.1) or SM4-GCM (4-byte implicit IV +
 * 8-byte explicit nonce, as TLS 1.2 AES-GCM). Not thread-safe: one per direction of a connection.
 */
abstract class RecordCipher {

    /** Bytes before the plaintext in an opened record. */
    abstract int plaintextOffset();

    /** The record body for {@code len} bytes of plaintext. */
    abstract byte[] seal(int type, long seq, byte[] b, int off, int len);

    /**
     * Decrypts a record body in place; returns the plaintext length (at {@link #plaintextOffset()}).
     *
     * @throws TlcpAlert bad_record_mac when it does not check
     */
    abstract int open(int type, long seq, byte[] body, int len) throws TlcpAlert;

    /** The key block's lengths: mac key, cipher key, IV, for one side. */
    static int[] keyBlockLengths(boolean gcm) {
        return gcm ? new int[] {0, 16, 4} : new int[] {32, 16, 16};
    }

    static RecordCipher create(boolean gcm, boolean encrypt, byte[] macKey, byte[] key, byte[] iv,
            SecureRandom random) {
        return gcm ? new Gcm(encrypt, key, iv) : new Cbc(encrypt, macKey, key, random);
    }

    static void header(byte[] h, int type, long seq, int len) {
        for (int i = 0; i < 8; i++) {
            h[i] = (byte) (seq >>> (56 - 8 * i));
        }
        h[8] = (byte) type;
        h[9] = (byte) (RecordLayer.VERSION >>> 8);
        h[10] = (byte) RecordLayer.VERSION;
        h[11] = (byte) (len >>> 8);
        h[12] = (byte) len;
    }

    /** SM4-CBC + HMAC-SM3. */
    static final class Cbc extends RecordCipher {
        private static final int BS = 16;
        private final SM4Engine sm4 = new SM4Engine();
        private final HMac mac = new HMac(new SM3Digest());
        private final SecureRandom random;
        private final byte[] header = new byte[13];
        private final byte[] tag = new byte[32];
        private final byte[] chain = new byte[BS];
        private final byte[] block = new byte[BS];

        Cbc(boolean encrypt, byte[] macKey, byte[] key, SecureRandom random) {
            sm4.init(encrypt, new KeyParameter(key));
            mac.init(new KeyParameter(macKey));
            this.random = random;
        }

        @Override
        int plaintextOffset() {
            return BS;
        }

        @Override
        byte[] seal(int type, long seq, byte[] b, int off, int len) {
            header(header, type, seq, len);
            mac.update(header, 0, 13);
            mac.update(b, off, len);
            mac.doFinal(tag, 0);
            int content = len + tag.length;
            int pad = BS - (content + 1) % BS;
            if (pad == BS) {
                pad = 0;
            }
            int total = content + pad + 1;
            byte[] out = new byte[BS + total];
            random.nextBytes(chain);
            System.arraycopy(chain, 0, out, 0, BS);
            System.arraycopy(b, off, out, BS, len);
            System.arraycopy(tag, 0, out, BS + len, tag.length);
            for (int i = BS + content; i < out.length; i++) {
                out[i] = (byte) pad;
            }
            for (int p = BS; p < out.length; p += BS) {
                for (int i = 0; i < BS; i++) {
                    out[p + i] ^= chain[i];
                }
                sm4.processBlock(out, p, out, p);
                System.arraycopy(out, p, chain, 0, BS);
            }
            return out;
        }

        @Override
        int open(int type, long seq, byte[] body, int len) throws TlcpAlert {
            if (len < BS + 48 || len % BS != 0) {
                throw TlcpAlert.send(TlcpAlert.BAD_RECORD_MAC, "record of " + len + " bytes is not SM4-CBC");
            }
            System.arraycopy(body, 0, chain, 0, BS);
            for (int p = BS; p < len; p += BS) {
                System.arraycopy(body, p, block, 0, BS);
                sm4.processBlock(body, p, body, p);
                for (int i = 0; i < BS; i++) {
                    body[p + i] ^= chain[i];
                }
                System.arraycopy(block, 0, chain, 0, BS);
            }
            int pad = body[len - 1] & 0xff;
            int content = len - BS - pad - 1 - tag.length;
            boolean ok = content >= 0;
            for (int i = len - 1 - pad; ok && i < len - 1; i++) {
                ok = (body[i] & 0xff) == pad;
            }
            if (!ok) {
                throw TlcpAlert.send(TlcpAlert.BAD_RECORD_MAC, "bad record padding");
            }
            header(header, type, seq, content);
            mac.update(header, 0, 13);
            mac.update(body, BS, content);
            mac.doFinal(tag, 0);
            int diff = 0;
            for (int i = 0; i < tag.length; i++) {
                diff |= tag[i] ^ body[BS + content + i];
            }
            if (diff != 0) {
                throw TlcpAlert.send(TlcpAlert.BAD_RECORD_MAC, "record MAC does not check");
            }
            return content;
        }
    }

    /** SM4-GCM. */
    static final class Gcm extends RecordCipher {
        private static final int EXPLICIT = 8;
        private static final int TAG = 16;
        private final GCMModeCipher gcm = GCMBlockCipher.newInstance(new SM4Engine());
        private final boolean encrypt;
        private final byte[] fixed;
        private KeyParameter key;
        private final byte[] header = new byte[13];

        Gcm(boolean encrypt, byte[] key, byte[] iv) {
            this.encrypt = encrypt;
            this.key = new KeyParameter(key);
            this.fixed = iv.clone();
        }

        @Override
        int plaintextOffset() {
            return EXPLICIT;
        }

        private byte[] nonce(byte[] explicit, int off) {
            byte[] n = new byte[12];
            System.arraycopy(fixed, 0, n, 0, 4);
            System.arraycopy(explicit, off, n, 4, EXPLICIT);
            return n;
        }

        private void init(byte[] nonce) {
            // the key schedule and GHASH tables are built on the first init only (key null afterwards)
            gcm.init(encrypt, new AEADParameters(key, TAG * 8, nonce, header));
            key = null;
        }

        @Override
        byte[] seal(int type, long seq, byte[] b, int off, int len) {
            byte[] out = new byte[EXPLICIT + len + TAG];
            for (int i = 0; i < EXPLICIT; i++) {
                out[i] = (byte) (seq >>> (56 - 8 * i));
            }
            header(header, type, seq, len);
            init(nonce(out, 0));
            int n = gcm.processBytes(b, off, len, out, EXPLICIT);
            try {
                gcm.doFinal(out, EXPLICIT + n);
            } catch (InvalidCipherTextException e) {
                throw new IllegalStateException(e);
            }
            return out;
        }

        @Override
        int open(int type, long seq, byte[] body, int len) throws TlcpAlert {
            int plain = len - EXPLICIT - TAG;
            if (plain < 0) {
                throw TlcpAlert.send(TlcpAlert.BAD_RECORD_MAC, "record of " + len + " bytes is not SM4-GCM");
            }
            header(header, type, seq, plain);
            init(nonce(body, 0));
            try {
                int n = gcm.processBytes(body, EXPLICIT, len - EXPLICIT, body, EXPLICIT);
                gcm.doFinal(body, EXPLICIT + n);
            } catch (InvalidCipherTextException | IllegalStateException e) {
                throw TlcpAlert.send(TlcpAlert.BAD_RECORD_MAC, "record tag does not check");
            }
            return plain;
        }
    }
}
