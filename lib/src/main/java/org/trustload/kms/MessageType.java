package org.trustload.kms;

/** What Sign and Verify receive: the message itself, or its digest computed by the caller. */
public enum MessageType {
    /** The message; the KMS hashes it with the algorithm's digest. */
    RAW,
    /** Already the digest of the message (e.g. 32 bytes for a SHA-256 algorithm); the KMS does not hash it again. */
    DIGEST
}
