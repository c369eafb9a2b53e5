package org.trustload.kms;

import java.util.Locale;

/**
 * The KMS operations. Not every backend serves every one: {@link KmsBackend#operations()} says which,
 * and {@link KmsBackends#requireOperation} refuses the others with a configuration error.
 */
public enum KmsOperation {
    /** Encrypts {@link KmsRequest#data()} under a symmetric key; output: an opaque ciphertext. */
    ENCRYPT,
    /** Decrypts {@link KmsRequest#ciphertext()} (from this backend's ENCRYPT); output: the plaintext. */
    DECRYPT,
    /**
     * Signs {@link KmsRequest#data()} (a message, or a digest with {@link MessageType#DIGEST}); output: the signature.
     */
    SIGN,
    /**
     * Verifies {@link KmsRequest#signature()} over {@link KmsRequest#data()}; {@link KmsResult#signatureValid()} says
     * the outcome.
     */
    VERIFY,
    /** Reads the current value of secret {@link KmsRequest#secretName()}; output: the secret value. */
    GET_SECRET_VALUE,
    /** Generates a data key under a symmetric key; output: the encrypted copy of the data key. */
    GENERATE_DATA_KEY,
    /** Like GENERATE_DATA_KEY, but the service returns only the encrypted copy; output: that copy. */
    GENERATE_DATA_KEY_WITHOUT_PLAINTEXT,
    /**
     * Decrypts {@link KmsRequest#ciphertext()} and encrypts it again under the same key and context; output: the new
     * ciphertext.
     */
    RE_ENCRYPT,
    /** Random bytes from the KMS, {@link KmsRequest#dataKeyBytes()} of them; output: the bytes. */
    GENERATE_RANDOM,
    /** The public key of an asymmetric key; output: the key as the service returns it (DER or PEM). */
    GET_PUBLIC_KEY,
    /**
     * The metadata of a key (by id, ARN, alias name or alias ARN); output: empty, {@link KmsResult#keyId()} the key's
     * ARN.
     */
    DESCRIBE_KEY,
    /**
     * HMAC of {@link KmsRequest#data()} with an HMAC key and the MAC algorithm {@link KmsRequest#algorithm()}; output:
     * the MAC.
     */
    GENERATE_MAC,
    /**
     * Verifies the MAC {@link KmsRequest#signature()} over {@link KmsRequest#data()};
     * {@link KmsResult#signatureValid()} says the outcome.
     */
    VERIFY_MAC;

    /**
     * Parses a name as written in plans: {@code encrypt}, {@code Encrypt}, {@code get_secret_value},
     * {@code GetSecretValue}, {@code generate-data-key} all work.
     *
     * @throws IllegalArgumentException for an unknown name; the message lists the valid ones
     */
    public static KmsOperation parse(String name) {
        String n = name == null ? "" : name.trim().replace("-", "").replace("_", "").toUpperCase(Locale.ROOT);
        for (KmsOperation op : values()) {
            if (op.name().replace("_", "").equals(n)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown KMS operation '" + name
                + "' (use " + String.join(", ", java.util.Arrays.stream(values()).map(KmsOperation::planName).toList())
                + ")");
    }

    /** Whether the outcome is a yes/no check (VERIFY, VERIFY_MAC): false is a failed sample, not an error. */
    public boolean isCheck() {
        return this == VERIFY || this == VERIFY_MAC;
    }

    /** The plan-facing name, e.g. {@code get_secret_value}. */
    public String planName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
