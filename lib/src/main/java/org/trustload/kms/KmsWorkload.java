package org.trustload.kms;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Builds the repeated request of a benchmark case, like the reference tool: random data of the
 * configured size, and for DECRYPT, RE_ENCRYPT, VERIFY and VERIFY_MAC one preparatory ENCRYPT, SIGN or
 * GENERATE_MAC call (with the same encryption context) whose output is then used on every iteration. Shared by the
 * sampler, the bench's raw loop and the tests, so all of them measure the same calls.
 */
public final class KmsWorkload {
    private KmsWorkload() {
    }

    /** What a case needs; the same fields as the sampler's properties. */
    public record Spec(KmsOperation operation, String keyId, int dataSize, String algorithm, MessageType messageType,
            String secretName, int dataKeyBytes, EncryptionContext context) {
        /** Normalises a null context to none. */
        public Spec {
            context = context == null ? EncryptionContext.NONE : context;
        }

        /** A case without encryption context. */
        public Spec(KmsOperation operation, String keyId, int dataSize, String algorithm, MessageType messageType,
                String secretName, int dataKeyBytes) {
            this(operation, keyId, dataSize, algorithm, messageType, secretName, dataKeyBytes, null);
        }

        /** This case on one key (of the several a plan may list). */
        public Spec withKeyId(String id) {
            return new Spec(operation, id, dataSize, algorithm, messageType, secretName, dataKeyBytes, context);
        }

        /** Whether the case sends {@code dataSize} bytes of data (encrypted, signed or MACed). */
        boolean usesData() {
            return switch (operation) {
                case ENCRYPT, DECRYPT, RE_ENCRYPT, SIGN, VERIFY, GENERATE_MAC, VERIFY_MAC -> true;
                default -> false;
            };
        }
    }

    /**
     * The keys a key id setting names: one id, or several separated by commas (a plan spreading its requests
     * over a tenant's keys); one empty id when none is given (cases without a key).
     */
    public static List<String> keyIds(String setting) {
        List<String> ids = new ArrayList<>();
        for (String id : (setting == null ? "" : setting).split(",")) {
            if (!id.isBlank()) {
                ids.add(id.strip());
            }
        }
        return ids.isEmpty() ? List.of("") : List.copyOf(ids);
    }

    /**
     * A request to repeat and what a successful answer to it must hold.
     *
     * @param request the request
     * @param expected for DECRYPT, the plaintext the preparatory Encrypt encrypted; null for the other operations
     */
    public record Case(KmsRequest request, byte[] expected) {
        /**
         * Whether a successful answer is right: null when it is, else the failure to report (category
         * {@link KmsException.Category#WRONG_OUTPUT}): {@code -:PlaintextMismatch} when a Decrypt returned
         * other bytes than were encrypted, {@code -:EmptyOutput} when an operation that must return bytes
         * (all but Verify, VerifyMac, DescribeKey and GetSecretValue, whose secret may be empty) returned
         * none. The detail gives lengths only: the bytes may be secret.
         */
        public KmsException check(KmsResult r) {
            String op = r.operation().planName();
            if (r.output().length == 0 && mustReturnBytes(r.operation())) {
                return new KmsException(KmsException.Category.WRONG_OUTPUT, -1, "EmptyOutput",
                        op + " succeeded without returning any bytes", null);
            }
            if (expected != null && !java.security.MessageDigest.isEqual(expected, r.output())) {
                return new KmsException(KmsException.Category.WRONG_OUTPUT, -1, "PlaintextMismatch", op + " returned "
                        + r.output().length + " bytes that are not the " + expected.length + " bytes encrypted", null);
            }
            return null;
        }

        private boolean mustReturnBytes(KmsOperation op) {
            return switch (op) {
                case VERIFY, VERIFY_MAC, DESCRIBE_KEY, GET_SECRET_VALUE -> false;
                case GENERATE_RANDOM -> request.dataKeyBytes() > 0;
                default -> true;
            };
        }

        /** Lengths only (the expected plaintext may be secret). */
        @Override
        public String toString() {
            return "Case[" + request + (expected == null ? "" : ", expected " + expected.length + " B") + "]";
        }
    }

    /**
     * The request to repeat. Calls the KMS once for DECRYPT and RE_ENCRYPT (to encrypt the data), VERIFY
     * (to sign it) and VERIFY_MAC (to MAC it).
     *
     * @param seed seeds the data, so each thread can send different bytes
     * @throws KmsException a failed preparatory call, or CONFIG_ERROR for bad sizes
     */
    public static KmsRequest prepare(KmsClient client, Spec s, long seed) throws KmsException {
        return prepareCase(client, s, seed).request();
    }

    /**
     * {@link #prepare} with what the answer must hold ({@link Case#check}): for DECRYPT the plaintext the
     * preparatory Encrypt sent.
     */
    public static Case prepareCase(KmsClient client, Spec s, long seed) throws KmsException {
        if ((s.dataSize() < 1 || s.dataSize() > 4096) && s.usesData()) {
            throw KmsException.config("BadDataSize", "dataSize", "must be 1 to 4096 bytes");
        }
        EncryptionContext ctx = s.context();
        int bytes = s.dataKeyBytes() > 0 ? s.dataKeyBytes() : 32;
        byte[] data = new byte[Math.max(1, Math.min(4096, s.dataSize()))];
        SplittableRandom r = new SplittableRandom(seed);
        r.nextBytes(data);
        byte[] message = s.messageType() == MessageType.DIGEST ? digest(s.algorithm(), data) : data;
        KmsRequest request = switch (s.operation()) {
            case ENCRYPT -> KmsRequest.encrypt(s.keyId(), data).withContext(ctx);
            case DECRYPT -> KmsRequest.decrypt(s.keyId(), encrypted(client, s, data)).withContext(ctx);
            case RE_ENCRYPT -> KmsRequest.reEncrypt(s.keyId(), encrypted(client, s, data)).withContext(ctx);
            case SIGN -> KmsRequest.sign(s.keyId(), s.algorithm(), s.messageType(), message);
            case VERIFY -> {
                byte[] sig = client.execute(KmsRequest.sign(s.keyId(), s.algorithm(), s.messageType(), message))
                        .output();
                yield KmsRequest.verify(s.keyId(), s.algorithm(), s.messageType(), message, sig);
            }
            case GET_SECRET_VALUE -> KmsRequest.getSecretValue(s.secretName());
            case GENERATE_DATA_KEY -> KmsRequest.generateDataKey(s.keyId(), bytes).withContext(ctx);
            case GENERATE_DATA_KEY_WITHOUT_PLAINTEXT -> KmsRequest.generateDataKeyWithoutPlaintext(s.keyId(), bytes)
                    .withContext(ctx);
            case GENERATE_RANDOM -> KmsRequest.generateRandom(bytes);
            case GET_PUBLIC_KEY -> KmsRequest.getPublicKey(s.keyId());
            case DESCRIBE_KEY -> KmsRequest.describeKey(s.keyId());
            case GENERATE_MAC -> KmsRequest.generateMac(s.keyId(), s.algorithm(), data);
            case VERIFY_MAC -> KmsRequest.verifyMac(s.keyId(), s.algorithm(), data,
                    client.execute(KmsRequest.generateMac(s.keyId(), s.algorithm(), data)).output());
        };
        return new Case(request, s.operation() == KmsOperation.DECRYPT ? data : null);
    }

    private static byte[] encrypted(KmsClient client, Spec s, byte[] data) throws KmsException {
        return client.execute(KmsRequest.encrypt(s.keyId(), data).withContext(s.context())).output();
    }

    /**
     * The digest a DIGEST-type Sign/Verify sends: SHA-384/SHA-512 when the algorithm name ends so,
     * SM3 for SM2 algorithms, else SHA-256.
     */
    public static byte[] digest(String algorithm, byte[] data) throws KmsException {
        String a = algorithm == null ? "" : algorithm.toUpperCase(Locale.ROOT);
        String name = a.contains("384") ? "SHA-384" : a.contains("512") ? "SHA-512" : a.contains("SM2")
                ? "SM3" : "SHA-256";
        try {
            return MessageDigest.getInstance(name).digest(data);
        } catch (NoSuchAlgorithmException e) {
            try {
                return MessageDigest.getInstance(name, new org.bouncycastle.jce.provider.BouncyCastleProvider())
                        .digest(data);
            } catch (NoSuchAlgorithmException e2) {
                throw KmsException.config("BadAlgorithm", "algorithm",
                        "no digest " + name + " for algorithm " + algorithm);
            }
        }
    }
}
