package org.trustload.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The encryption context text a plan stores: its map form (AWS), its AAD form (Alibaba) and bad input. */
class EncryptionContextTest {

    @Test
    void jsonAndPairsGiveTheSameMap() throws Exception {
        Map<String, String> json = EncryptionContext.parse(" {\"tenant\":\"acme\", \"purpose\":\"a=b, c\"} ").map();
        assertThat(json).containsExactly(Map.entry("tenant", "acme"), Map.entry("purpose", "a=b, c"));
        assertThat(EncryptionContext.parse("tenant = acme , purpose=bench").map())
                .containsExactly(Map.entry("tenant", "acme"), Map.entry("purpose", "bench"));
        assertThat(EncryptionContext.parse("k=").map()).containsExactly(Map.entry("k", ""));
        assertThat(EncryptionContext.parse("k=v=w").map()).containsExactly(Map.entry("k", "v=w"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void emptyIsNone(String text) throws Exception {
        EncryptionContext c = EncryptionContext.parse(text);
        assertThat(c).isSameAs(EncryptionContext.NONE);
        assertThat(c.isEmpty()).isTrue();
        assertThat(c.map()).isEmpty();
        assertThat(c.aad()).isEmpty();
        assertThat(EncryptionContext.parse(null)).isSameAs(EncryptionContext.NONE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tenant", "a=1,,b=2", "=v", "a=1,a=2", "{\"a\":1}", "{\"a\":", "[\"a\"]",
        "{\"a\":\"x\",\"a\":\"y\"}", "base64:AAEC"})
    void whatIsNotAMapIsAConfigErrorOnlyWhenAMapIsAskedFor(String text) throws Exception {
        EncryptionContext c = EncryptionContext.parse(text);
        assertThatThrownBy(c::map).isInstanceOfSatisfying(KmsException.class, e -> {
            assertThat(e.kind()).isEqualTo(KmsException.Category.CONFIG_ERROR);
            assertThat(e.isConfigError()).isTrue();
            assertThat(e.errorCode()).isEqualTo("BadEncryptionContext");
            assertThat(e.setting()).isEqualTo("encryptionContext");
        });
        assertThat(c.aad()).isNotEmpty();
    }

    @Test
    void aadIsTheTextAsWrittenOrTheBase64Bytes() throws Exception {
        assertThat(EncryptionContext.parse("tenant=acme").aad())
                .isEqualTo("tenant=acme".getBytes(StandardCharsets.UTF_8));
        assertThat(EncryptionContext.parse("{\"ü\":\"x\"}").aad())
                .isEqualTo("{\"ü\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(EncryptionContext.parse("base64:AAEC").aad()).containsExactly(0, 1, 2);
        assertThatThrownBy(() -> EncryptionContext.parse("base64:not base64!").aad())
                .hasMessage("the text after base64: is not base64");
    }

    @Test
    void ofKeepsOrderAndRoundTripsThroughItsText() throws Exception {
        EncryptionContext c = EncryptionContext.of(Map.of("a", "1"));
        assertThat(EncryptionContext.parse(c.text()).map()).isEqualTo(c.map());
        assertThat(EncryptionContext.of(Map.of())).isSameAs(EncryptionContext.NONE);
    }

    @Test
    void toStringShowsSizesNotContent() {
        assertThat(EncryptionContext.parse("tenant=secret-value").toString()).isEqualTo("1 pairs")
                .doesNotContain("secret");
        assertThat(EncryptionContext.parse("base64:AAEC").toString()).doesNotContain("AAEC");
        assertThat(KmsRequest.encrypt("k", new byte[1]).withContext(EncryptionContext.parse("t=hidden")).toString())
                .contains("context=1 pairs").doesNotContain("hidden");
    }

    @Test
    void equalityIsByText() {
        assertThat(EncryptionContext.parse("a=1")).isEqualTo(EncryptionContext.parse(" a=1 "))
                .isNotEqualTo(EncryptionContext.parse("a=2"));
    }
}
