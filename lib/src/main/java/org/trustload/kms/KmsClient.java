package org.trustload.kms;

/**
 * An open connection pool to one KMS, made by {@link KmsBackend#open}. Thread-safe: one client is
 * shared by every thread of a test, then closed.
 */
public interface KmsClient extends AutoCloseable {

    /**
     * Runs one call, with no retries unless the settings ask for them.
     *
     * @return the result; for VERIFY a false {@link KmsResult#signatureValid()} is returned, not thrown,
     *     even where the service answers an invalid signature with an error (AWS {@code KMSInvalidSignatureException})
     * @throws KmsException every failure, categorised; never another exception type
     */
    KmsResult execute(KmsRequest request) throws KmsException;

    /** Closes the pool; idempotent. */
    @Override
    void close();
}
