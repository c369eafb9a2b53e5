package org.trustload.pki;

/**
 * Something that returns an RFC 3161 timestamp token for a message imprint: the HTTP client
 * ({@code TimestampClient}) in production, an in-process BouncyCastle TSA in tests.
 */
@FunctionalInterface
public interface TimestampSource {
    /**
     * @param imprint the digest of the data to timestamp
     * @param digestAlgorithm its JCA name, e.g. {@code SHA-256}
     * @return the DER-encoded TimeStampToken (a CMS SignedData), never a whole response
     */
    byte[] timestamp(byte[] imprint, String digestAlgorithm) throws PkiException;
}
