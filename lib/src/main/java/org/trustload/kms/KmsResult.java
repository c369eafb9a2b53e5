package org.trustload.kms;

/**
 * The outcome of a successful call (the service answered 2xx).
 *
 * @param operation the operation
 * @param output ciphertext (ENCRYPT, opaque: feed it to DECRYPT), plaintext (DECRYPT), signature (SIGN),
 *     secret value bytes (GET_SECRET_VALUE), encrypted data key (GENERATE_DATA_KEY and
 *     GENERATE_DATA_KEY_WITHOUT_PLAINTEXT), new ciphertext (RE_ENCRYPT), random bytes (GENERATE_RANDOM),
 *     public key (GET_PUBLIC_KEY), MAC (GENERATE_MAC), empty for VERIFY, VERIFY_MAC and DESCRIBE_KEY.
 *     May be secret: callers must never put it in results or logs, only its length
 * @param signatureValid for VERIFY and VERIFY_MAC, whether the signature or MAC is valid; true for the other operations
 * @param keyId the key the service reports having used (may be an ARN), or empty
 * @param requestId the service's request id, or empty
 */
public record KmsResult(KmsOperation operation, byte[] output, boolean signatureValid, String keyId, String requestId) {

    /** Normalises nulls to empty values. */
    public KmsResult {
        output = output == null ? new byte[0] : output;
        keyId = keyId == null ? "" : keyId;
        requestId = requestId == null ? "" : requestId;
    }

    /** Summary without the output bytes (they may be secret). */
    @Override
    public String toString() {
        return "KmsResult[" + operation + ", output=" + output.length + " B, signatureValid=" + signatureValid
                + ", keyId=" + keyId + ", requestId=" + requestId + "]";
    }
}
