package org.trustload.kms;

import java.util.Locale;

/** The KMS operations every {@link KmsBackend} implements. */
public enum KmsOperation {
    /** Encrypts {@link KmsRequest#data()} under a symmetric key; output: an opaque ciphertext. */
    ENCRYPT,
    /** Decrypts {@link KmsRequest#ciphertext()} (from this backend's ENCRYPT); output: the plaintext. */
    DECRYPT,
    /** Signs {@link KmsRequest#data()} (a message, or a digest with {@link MessageType#DIGEST}); output: the signature. */
    SIGN,
    /** Verifies {@link KmsRequest#signature()} over {@link KmsRequest#data()}; {@link KmsResult#signatureValid()} says the outcome. */
    VERIFY,
    /** Reads the current value of secret {@link KmsRequest#secretName()}; output: the secret value. */
    GET_SECRET_VALUE,
    /** Generates a data key under a symmetric key; output: the encrypted copy of the data key. */
    GENERATE_DATA_KEY;

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
                + "' (use encrypt, decrypt, sign, verify, get_secret_value, generate_data_key)");
    }

    /** The plan-facing name, e.g. {@code get_secret_value}. */
    public String planName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
