package org.trustload.kms;

/**
 * A KMS client library behind a name ({@code aws-kms}, {@code aliyun-kms-instance}), found through
 * {@code META-INF/services/org.trustload.kms.KmsBackend} by {@link KmsBackends#byName}. Implementations
 * have a public no-argument constructor and are stateless; the state lives in the {@link KmsClient}.
 */
public interface KmsBackend {

    /** The stable name used in plans, e.g. {@code aws-kms}. */
    String name();

    /** The operations this backend serves; {@link KmsClient#execute} refuses the others (CONFIG_ERROR). */
    default java.util.Set<KmsOperation> operations() {
        return java.util.EnumSet.allOf(KmsOperation.class);
    }

    /**
     * Builds a client (connection pool, TLS context, credentials) for {@code settings}. Expensive: call
     * once per test. Does not contact the server.
     *
     * @throws KmsException category CONFIG_ERROR for settings this backend cannot use
     */
    KmsClient open(KmsSettings settings) throws KmsException;
}
