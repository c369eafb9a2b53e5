package org.trustload.jmeter.kms;

import org.trustload.kms.KmsBackend;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsResult;
import org.trustload.kms.KmsSettings;

/**
 * A test-only backend ({@code test-scripted}) whose answers the endpoint names, to check how the
 * sampler turns each outcome into a result: {@code valid}, {@code invalid-signature},
 * {@code throttled}. The real backends' own mapping is tested against real servers (lab, moto).
 */
public final class ScriptedKmsBackend implements KmsBackend {
    @Override
    public String name() {
        return "test-scripted";
    }

    @Override
    public KmsClient open(KmsSettings s) {
        String mode = s.endpoint();
        return new KmsClient() {
            @Override
            public KmsResult execute(org.trustload.kms.KmsRequest r) throws KmsException {
                if (mode.equals("throttled") && r.operation() != KmsOperation.SIGN) {
                    throw new KmsException(KmsException.Category.LIMIT_EXCEEDED, 429, "ThrottlingException", "slow down", null);
                }
                if (mode.equals("context-required") && !r.context().map().equals(java.util.Map.of("tenant", "acme"))) {
                    throw new KmsException(KmsException.Category.CLIENT_ERROR, 400, "InvalidCiphertextException", "", null);
                }
                boolean valid = !(mode.equals("invalid-signature") && r.operation().isCheck());
                return new KmsResult(r.operation(), "secret-plaintext".getBytes(), valid, "k", "req-1");
            }

            @Override
            public void close() {
            }
        };
    }
}
