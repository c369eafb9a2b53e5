package org.trustload.kms;

/**
 * One KMS call: the operation and what it reads. Each {@link KmsOperation} names its inputs; the "reads" column
 * of docs/elements/kms-request.md lists them per operation. Byte arrays are not copied: callers must not change
 * them while a call runs.
 *
 * @param operation the operation
 * @param keyId key id, ARN or alias
 * @param data plaintext (ENCRYPT), message or digest (SIGN, VERIFY)
 * @param ciphertext opaque ciphertext from this backend's ENCRYPT ({@link KmsResult#output()})
 * @param signature signature to verify (from SIGN)
 * @param algorithm signing algorithm in the backend's own naming (AWS {@code RSASSA_PSS_SHA_256},
 *     {@code ECDSA_SHA_256}; Alibaba {@code RSA_PSS_SHA_256}, {@code ECDSA_SHA_256}); empty = backend default
 * @param messageType RAW or DIGEST
 * @param secretName secret name or id
 * @param dataKeyBytes data key length in bytes (GENERATE_DATA_KEY; 32 = AES-256), random bytes (GENERATE_RANDOM)
 * @param context the encryption context (AWS) or AAD (Alibaba) bound into ciphertexts; {@link EncryptionContext#NONE}
 * for none
 */
public record KmsRequest(KmsOperation operation, String keyId, byte[] data, byte[] ciphertext, byte[] signature,
        String algorithm, MessageType messageType, String secretName, int dataKeyBytes, EncryptionContext context) {

    /** Normalises nulls to empty values. */
    public KmsRequest {
        keyId = keyId == null ? "" : keyId;
        data = data == null ? new byte[0] : data;
        ciphertext = ciphertext == null ? new byte[0] : ciphertext;
        signature = signature == null ? new byte[0] : signature;
        algorithm = algorithm == null ? "" : algorithm;
        messageType = messageType == null ? MessageType.RAW : messageType;
        secretName = secretName == null ? "" : secretName;
        context = context == null ? EncryptionContext.NONE : context;
    }

    /** A request without encryption context. */
    public KmsRequest(KmsOperation operation, String keyId, byte[] data, byte[] ciphertext, byte[] signature,
            String algorithm, MessageType messageType, String secretName, int dataKeyBytes) {
        this(operation, keyId, data, ciphertext, signature, algorithm, messageType, secretName, dataKeyBytes, null);
    }

    /** This request with another encryption context. */
    public KmsRequest withContext(EncryptionContext c) {
        return new KmsRequest(operation, keyId, data, ciphertext, signature, algorithm, messageType, secretName,
                dataKeyBytes, c);
    }

    public static KmsRequest encrypt(String keyId, byte[] plaintext) {
        return new KmsRequest(KmsOperation.ENCRYPT, keyId, plaintext, null, null, null, null, null, 0);
    }

    public static KmsRequest decrypt(String keyId, byte[] ciphertext) {
        return new KmsRequest(KmsOperation.DECRYPT, keyId, null, ciphertext, null, null, null, null, 0);
    }

    public static KmsRequest sign(String keyId, String algorithm, MessageType type, byte[] message) {
        return new KmsRequest(KmsOperation.SIGN, keyId, message, null, null, algorithm, type, null, 0);
    }

    public static KmsRequest verify(String keyId, String algorithm, MessageType type,
            byte[] message, byte[] signature) {
        return new KmsRequest(KmsOperation.VERIFY, keyId, message, null, signature, algorithm, type, null, 0);
    }

    public static KmsRequest getSecretValue(String secretName) {
        return new KmsRequest(KmsOperation.GET_SECRET_VALUE, null, null, null, null, null, null, secretName, 0);
    }

    public static KmsRequest generateDataKey(String keyId, int bytes) {
        return new KmsRequest(KmsOperation.GENERATE_DATA_KEY, keyId, null, null, null, null, null, null, bytes);
    }

    public static KmsRequest generateDataKeyWithoutPlaintext(String keyId, int bytes) {
        return new KmsRequest(KmsOperation.GENERATE_DATA_KEY_WITHOUT_PLAINTEXT, keyId, null, null, null,
                null, null, null, bytes);
    }

    public static KmsRequest reEncrypt(String keyId, byte[] ciphertext) {
        return new KmsRequest(KmsOperation.RE_ENCRYPT, keyId, null, ciphertext, null, null, null, null, 0);
    }

    public static KmsRequest generateRandom(int bytes) {
        return new KmsRequest(KmsOperation.GENERATE_RANDOM, null, null, null, null, null, null, null, bytes);
    }

    public static KmsRequest getPublicKey(String keyId) {
        return new KmsRequest(KmsOperation.GET_PUBLIC_KEY, keyId, null, null, null, null, null, null, 0);
    }

    public static KmsRequest describeKey(String keyId) {
        return new KmsRequest(KmsOperation.DESCRIBE_KEY, keyId, null, null, null, null, null, null, 0);
    }

    public static KmsRequest generateMac(String keyId, String macAlgorithm, byte[] message) {
        return new KmsRequest(KmsOperation.GENERATE_MAC, keyId, message, null, null, macAlgorithm, null, null, 0);
    }

    public static KmsRequest verifyMac(String keyId, String macAlgorithm, byte[] message, byte[] mac) {
        return new KmsRequest(KmsOperation.VERIFY_MAC, keyId, message, null, mac, macAlgorithm, null, null, 0);
    }

    /** Field summary without any byte content (only lengths). */
    @Override
    public String toString() {
        return "KmsRequest[" + operation + ", keyId=" + keyId + ", data=" + data.length + " B, ciphertext="
                + ciphertext.length + " B, signature=" + signature.length + " B, algorithm=" + algorithm + ", "
                + messageType + ", secretName=" + secretName + ", dataKeyBytes=" + dataKeyBytes
                + ", context=" + context + "]";
    }
}
