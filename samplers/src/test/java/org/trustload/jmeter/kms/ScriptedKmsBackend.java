package org.trustload.jmeter.kms;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.trustload.kms.KmsBackend;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsOperation;
import org.trustload.kms.KmsRequest;
import org.trustload.kms.KmsResult;
import org.trustload.kms.KmsSettings;

/**
 * A test-only backend ({@code test-scripted}) whose answers the endpoint names, to check how the
 * sampler turns each outcome into a result: {@code valid}, {@code invalid-signature},
 * {@code throttled}, {@code context-required}, {@code wrong-plaintext} (a Decrypt that returns other bytes than
 * were encrypted), {@code empty-output} (every call succeeds with no bytes). Counts the clients it opened and closed.
 * The real backends' own mapping is tested against real servers (lab, moto).
 */
public class ScriptedKmsBackend implements KmsBackend {
    /** Clients opened and closed in this JVM. */
    static final AtomicInteger OPENED = new AtomicInteger();
    static final AtomicInteger CLOSED = new AtomicInteger();

    @Override
    public String name() {
        return "test-scripted";
    }

    @Override
    public KmsClient open(KmsSettings s) {
        String mode = s.endpoint();
        OPENED.incrementAndGet();
        return new KmsClient() {
            private boolean closed;

            @Override
            public KmsResult execute(KmsRequest r) throws KmsException {
                if (mode.equals("throttled") && r.operation() != KmsOperation.SIGN) {
                    throw new KmsException(KmsException.Category.LIMIT_EXCEEDED, 429, "ThrottlingException",
                            "slow down", null);
                }
                if (mode.equals("context-required") && !r.context().map().equals(Map.of("tenant", "acme"))) {
                    throw new KmsException(KmsException.Category.CLIENT_ERROR, 400, "InvalidCiphertextException", "",
                            null);
                }
                boolean valid = !(mode.equals("invalid-signature") && r.operation().isCheck());
                return new KmsResult(r.operation(), output(r), valid, "k", "req-1");
            }

            /**
             * Encrypt: a ciphertext of {@code secret-plaintext} and the data; Decrypt: the data again (other
             * bytes in mode {@code wrong-plaintext}); the rest {@code secret-plaintext}; nothing in mode
             * {@code empty-output}.
             */
            private byte[] output(KmsRequest r) {
                byte[] marker = "secret-plaintext".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                if (mode.equals("empty-output")) {
                    return new byte[0];
                }
                if (r.operation() == KmsOperation.ENCRYPT) {
                    byte[] ct = java.util.Arrays.copyOf(marker, marker.length + r.data().length);
                    System.arraycopy(r.data(), 0, ct, marker.length, r.data().length);
                    return ct;
                }
                if (r.operation() == KmsOperation.DECRYPT && !mode.equals("wrong-plaintext")) {
                    return java.util.Arrays.copyOfRange(r.ciphertext(), Math.min(marker.length, r.ciphertext().length),
                            r.ciphertext().length);
                }
                return marker;
            }

            @Override
            public synchronized void close() {
                if (!closed) {
                    closed = true;
                    CLOSED.incrementAndGet();
                }
            }
        };
    }

    /** {@code test-limited}: serves encrypt only, like a backend without the other operations. */
    public static final class Limited extends ScriptedKmsBackend {
        @Override
        public String name() {
            return "test-limited";
        }

        @Override
        public Set<KmsOperation> operations() {
            return EnumSet.of(KmsOperation.ENCRYPT);
        }
    }
}
