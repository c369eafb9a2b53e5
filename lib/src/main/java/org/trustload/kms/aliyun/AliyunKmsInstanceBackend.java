package org.trustload.kms.aliyun;

import org.trustload.kms.KmsBackend;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsSettings;

/**
 * The {@code aliyun-kms-instance} backend: Alibaba Cloud KMS instances (dedicated KMS) through the
 * official SDK {@code com.aliyun:alibabacloud-dkms-gcs-sdk} 0.5.2, authenticated with a client key
 * file (JSON {@code {KeyId, PrivateKeyData}}) and its password.
 *
 * <p>Settings read: endpoint ({@code host:port}, or {@code https://host:port} / {@code http://host:port};
 * HTTPS when no scheme is given), client key file and password, CA file (PEM) or trust-all (HTTPS
 * needs one of them: the SDK trusts nothing else), connect and response timeouts, max connections
 * (the idle pool size), retries (0 by default; the SDK's own default is on and would hide throttling).
 * The SDK never checks the server's host name, whatever is configured.
 *
 * <p>The encryption context ({@link org.trustload.kms.EncryptionContext#aad()}) is sent as the {@code Aad}
 * of Encrypt, Decrypt and GenerateDataKey.
 *
 * <p>Ciphertexts are opaque to callers: ENCRYPT and GENERATE_DATA_KEY return the service's IV and
 * ciphertext blob in one envelope that DECRYPT takes back (see {@link AliyunKmsInstanceClient}).
 */
public final class AliyunKmsInstanceBackend implements KmsBackend {

    @Override
    public String name() {
        return KmsBackends.ALIYUN;
    }

    /** What the KMS instance SDK 0.5.2 offers and this backend maps (no DescribeKey, ReEncrypt or MACs there). */
    private static final java.util.Set<KmsOperation> OPERATIONS = java.util.Collections.unmodifiableSet(
            java.util.EnumSet.of(KmsOperation.ENCRYPT, KmsOperation.DECRYPT, KmsOperation.SIGN, KmsOperation.VERIFY,
                    KmsOperation.GET_SECRET_VALUE, KmsOperation.GENERATE_DATA_KEY, KmsOperation.GENERATE_RANDOM,
                    KmsOperation.GET_PUBLIC_KEY));

    @Override
    public java.util.Set<KmsOperation> operations() {
        return OPERATIONS;
    }

    @Override
    public KmsClient open(KmsSettings settings) throws KmsException {
        return AliyunKmsInstanceClient.open(settings);
    }
}
