package org.trustload.kms;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Builds the repeated request of a benchmark case, like the reference tool: random data of the
 * configured size, and for DECRYPT and VERIFY one preparatory ENCRYPT or SIGN call whose output is then
 * decrypted or verified on every iteration. Shared by the sampler, the bench's raw loop and the tests,
 * so all of them measure the same calls.
 */
public final class KmsWorkload {
    private KmsWorkload() {
    }

    /** What a case needs; the same fields as the sampler's properties. */
    public record Spec(KmsOperation operation, String keyId, int dataSize, String algorithm, MessageType messageType,
            String secretName, int dataKeyBytes) {
    }

    /**
     * The request to repeat. Calls the KMS once for DECRYPT (to encrypt the data) and VERIFY (to sign it).
     *
     * @param seed seeds the data, so each thread can send different bytes
     * @throws KmsException a failed preparatory call, or CONFIG_ERROR for bad sizes
     */
    public static KmsRequest prepare(KmsClient client, Spec s, long seed) throws KmsException {
        if (s.dataSize() < 1 || s.dataSize() > 4096) {
            if (s.operation() != KmsOperation.GET_SECRET_VALUE && s.operation() != KmsOperation.GENERATE_DATA_KEY) {
                throw KmsException.config("BadDataSize", "data size must be 1 to 4096 bytes, was " + s.dataSize());
            }
        }
        byte[] data = new byte[Math.max(1, Math.min(4096, s.dataSize()))];
        SplittableRandom r = new SplittableRandom(seed);
        r.nextBytes(data);
        byte[] message = s.messageType() == MessageType.DIGEST ? digest(s.algorithm(), data) : data;
        return switch (s.operation()) {
            case ENCRYPT -> KmsRequest.encrypt(s.keyId(), data);
            case DECRYPT -> KmsRequest.decrypt(s.keyId(), client.execute(KmsRequest.encrypt(s.keyId(), data)).output());
            case SIGN -> KmsRequest.sign(s.keyId(), s.algorithm(), s.messageType(), message);
            case VERIFY -> {
                byte[] sig = client.execute(KmsRequest.sign(s.keyId(), s.algorithm(), s.messageType(), message)).output();
                yield KmsRequest.verify(s.keyId(), s.algorithm(), s.messageType(), message, sig);
            }
            case GET_SECRET_VALUE -> KmsRequest.getSecretValue(s.secretName());
            case GENERATE_DATA_KEY -> KmsRequest.generateDataKey(s.keyId(), s.dataKeyBytes() > 0 ? s.dataKeyBytes() : 32);
        };
    }

    /**
     * The digest a DIGEST-type Sign/Verify sends: SHA-384/SHA-512 when the algorithm name ends so,
     * SM3 for SM2 algorithms, else SHA-256.
     */
    public static byte[] digest(String algorithm, byte[] data) throws KmsException {
        String a = algorithm == null ? "" : algorithm.toUpperCase(Locale.ROOT);
        String name = a.contains("384") ? "SHA-384" : a.contains("512") ? "SHA-512" : a.contains("SM2") ? "SM3" : "SHA-256";
        try {
            return MessageDigest.getInstance(name).digest(data);
        } catch (NoSuchAlgorithmException e) {
            try {
                return MessageDigest.getInstance(name, new org.bouncycastle.jce.provider.BouncyCastleProvider()).digest(data);
            } catch (NoSuchAlgorithmException e2) {
                throw KmsException.config("BadAlgorithm", "no digest " + name + " for algorithm " + algorithm);
            }
        }
    }
}
