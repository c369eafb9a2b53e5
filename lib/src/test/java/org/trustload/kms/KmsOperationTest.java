package org.trustload.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Operation names as plans write them, and the backend/operation check. */
class KmsOperationTest {

    @ParameterizedTest
    @CsvSource({"generate_data_key_without_plaintext, GENERATE_DATA_KEY_WITHOUT_PLAINTEXT",
        "GenerateDataKeyWithoutPlaintext, GENERATE_DATA_KEY_WITHOUT_PLAINTEXT", "re-encrypt, RE_ENCRYPT",
        "ReEncrypt, RE_ENCRYPT", "generate_random, GENERATE_RANDOM", "GetPublicKey, GET_PUBLIC_KEY",
        "describe_key, DESCRIBE_KEY", "GenerateMac, GENERATE_MAC", "verify_mac, VERIFY_MAC", "encrypt, ENCRYPT"})
    void parsesPlanAndApiNames(String name, KmsOperation op) {
        assertThat(KmsOperation.parse(name)).isEqualTo(op);
        assertThat(KmsOperation.parse(op.planName())).isEqualTo(op);
    }

    @Test
    void anUnknownNameListsTheValidOnes() {
        assertThatThrownBy(() -> KmsOperation.parse("delete")).hasMessageContaining("describe_key")
                .hasMessageContaining("generate_data_key_without_plaintext");
    }

    @Test
    void onlyVerifyAndVerifyMacAreChecks() {
        assertThat(EnumSet.allOf(KmsOperation.class).stream().filter(KmsOperation::isCheck))
                .containsExactlyInAnyOrder(KmsOperation.VERIFY, KmsOperation.VERIFY_MAC);
    }

    @Test
    void anOperationTheBackendLacksIsAConfigErrorNamingWhatItServes() throws Exception {
        KmsBackend small = new KmsBackend() {
            @Override
            public String name() {
                return "small";
            }

            @Override
            public Set<KmsOperation> operations() {
                return EnumSet.of(KmsOperation.ENCRYPT, KmsOperation.DECRYPT);
            }

            @Override
            public KmsClient open(KmsSettings settings) {
                throw new UnsupportedOperationException();
            }
        };
        KmsBackends.requireOperation(small, KmsOperation.ENCRYPT);
        assertThatThrownBy(() -> KmsBackends.requireOperation(small, KmsOperation.DESCRIBE_KEY))
                .isInstanceOfSatisfying(KmsException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo("UnsupportedOperation");
                    assertThat(e.setting()).isEqualTo("operation");
                    assertThat(e.detail()).isEqualTo(
                            "the small backend does not serve describe_key (it serves encrypt, decrypt)");
                });
    }

    @Test
    void theBackendsSayWhatTheyServe() throws Exception {
        assertThat(KmsBackends.byName(KmsBackends.AWS).operations()).containsExactlyInAnyOrder(KmsOperation.values());
        assertThat(KmsBackends.byName(KmsBackends.ALIYUN).operations()).containsExactlyInAnyOrder(KmsOperation.ENCRYPT,
                KmsOperation.DECRYPT, KmsOperation.SIGN, KmsOperation.VERIFY, KmsOperation.GET_SECRET_VALUE,
                KmsOperation.GENERATE_DATA_KEY, KmsOperation.GENERATE_RANDOM, KmsOperation.GET_PUBLIC_KEY);
    }

    @Test
    void workloadSendsTheContextOnEveryCallThatBindsOne() throws Exception {
        EncryptionContext ctx = EncryptionContext.parse("a=1");
        KmsClient fake = new KmsClient() {
            @Override
            public KmsResult execute(KmsRequest r) {
                assertThat(r.context()).as(r.operation().name()).isEqualTo(ctx);
                return new KmsResult(r.operation(), new byte[] {7}, true, "", "");
            }

            @Override
            public void close() {
            }
        };
        for (KmsOperation op : new KmsOperation[] {KmsOperation.ENCRYPT, KmsOperation.DECRYPT, KmsOperation.RE_ENCRYPT,
                KmsOperation.GENERATE_DATA_KEY, KmsOperation.GENERATE_DATA_KEY_WITHOUT_PLAINTEXT}) {
            KmsRequest r = KmsWorkload.prepare(fake,
                    new KmsWorkload.Spec(op, "k", 16, "", MessageType.RAW, "", 32, ctx), 1);
            assertThat(r.context()).isEqualTo(ctx);
        }
        KmsRequest random = KmsWorkload.prepare(fake, new KmsWorkload.Spec(KmsOperation.GENERATE_RANDOM, "", 0, "",
                MessageType.RAW, "", 64, ctx), 1);
        assertThat(random.dataKeyBytes()).isEqualTo(64);
        assertThat(random.context()).isEqualTo(EncryptionContext.NONE);
        assertThatThrownBy(() -> KmsWorkload.prepare(fake, new KmsWorkload.Spec(KmsOperation.GENERATE_MAC, "k", 0, "",
                MessageType.RAW, "", 0), 1)).hasMessage("must be 1 to 4096 bytes");
    }
}
