package org.trustload.kms.aliyun;

import org.trustload.kms.KmsBackend;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsSettings;

/**
 * The {@code aliyun-kms-instance} backend: Alibaba Cloud KMS instances through the official SDK
 * ({@code alibabacloud-dkms-gcs-sdk} 0.5.2), authenticated with a client key file and its password. HTTPS needs
 * a CA file or trust-all (the SDK trusts nothing else and never checks host names); retries are off by default
 * (the SDK's would hide throttling); the encryption context goes as {@code Aad}. Ciphertexts are opaque: the
 * service's IV and blob in one envelope ({@link AliyunKmsInstanceClient}). Settings:
 * docs/elements/kms-client-config.md.
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
