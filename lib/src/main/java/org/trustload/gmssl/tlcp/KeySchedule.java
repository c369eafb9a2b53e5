package org.trustload.gmssl.tlcp;

import java.security.SecureRandom;
import java.util.Arrays;

/** Master secret and record keys of a TLCP connection (the TLS 1.2 key schedule with the SM3 PRF). */
final class KeySchedule {
    static final int MASTER_LENGTH = 48;

    private KeySchedule() {
    }

    static byte[] master(byte[] preMaster, byte[] clientRandom, byte[] serverRandom) {
        return Prf.prf(preMaster, Prf.MASTER_SECRET, clientRandom, serverRandom, MASTER_LENGTH);
    }

    /**
     * The two directions' record ciphers: {@code [client write, server write]}, each for
     * encryption ({@code weAreClient} decides which side encrypts which).
     */
    static RecordCipher[] ciphers(byte[] master, byte[] clientRandom, byte[] serverRandom, boolean gcm,
            boolean weAreClient, SecureRandom random) {
        int[] l = RecordCipher.keyBlockLengths(gcm);
        int mac = l[0];
        int key = l[1];
        int iv = l[2];
        byte[] block = Prf.prf(master, Prf.KEY_EXPANSION, serverRandom, clientRandom, 2 * (mac + key + iv));
        int p = 0;
        byte[] clientMac = Arrays.copyOfRange(block, p, p += mac);
        byte[] serverMac = Arrays.copyOfRange(block, p, p += mac);
        byte[] clientKey = Arrays.copyOfRange(block, p, p += key);
        byte[] serverKey = Arrays.copyOfRange(block, p, p += key);
        byte[] clientIv = Arrays.copyOfRange(block, p, p += iv);
        byte[] serverIv = Arrays.copyOfRange(block, p, p + iv);
        return new RecordCipher[] {
            RecordCipher.create(gcm, weAreClient, clientMac, clientKey, clientIv, random),
            RecordCipher.create(gcm, !weAreClient, serverMac, serverKey, serverIv, random)};
    }
}
