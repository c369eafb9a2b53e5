package org.trustload.testing.gmssl.tlcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.gmssl.tlcp.TlcpKnownAnswerTest;
import org.trustload.labkit.pki.TestPki;
import org.trustload.testing.NativeTlcpPeer;

/**
 * Where lib's TLCP known answers come from, again on every run: {@code tlcp-peer kat} (native Tongsuo) for
 * both record protections, its output checked by {@link TlcpKnownAnswerTest#check} against our PRF, key
 * schedule and record ciphers; the PRF lines (fixed inputs) must also be the recorded ones.
 */
class TongsuoKnownAnswersIT {

    @Test
    void freshTongsuoAnswersAgreeWithOurCodeAndWithTheRecordedOnes(@TempDir Path dir) throws Exception {
        NativeTlcpPeer.assumeOrFailInCi();
        TestPki pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0),
                dir.resolve("sm2"));
        Path d = pki.dir();
        String recorded = TlcpKnownAnswerTest.recorded();
        for (String cipher : List.of("ECC-SM2-SM4-CBC-SM3", "ECC-SM2-SM4-GCM-SM3")) {
            NativeTlcpPeer.Result r = NativeTlcpPeer.kat(List.of("--cipher", cipher,
                    "--sign-cert", d.resolve("tlcp-server-sign.pem").toString(),
                    "--sign-key", d.resolve("tlcp-server-sign.key").toString(),
                    "--enc-cert", d.resolve("tlcp-server-enc.pem").toString(),
                    "--enc-key", d.resolve("tlcp-server-enc.key").toString()), Duration.ofSeconds(60));
            assertThat(r.exit()).as(cipher + ": " + r.stderr()).isZero();
            assertThat(r.stdout()).as(cipher).contains("SESSION " + cipher + " ");
            assertThat(TlcpKnownAnswerTest.check(r.stdout())).as(cipher).containsExactly(3, 1, 2);
            r.stdout().lines().filter(l -> l.startsWith("PRF "))
                    .forEach(l -> assertThat(recorded).as(cipher).contains(l));
        }
    }
}
