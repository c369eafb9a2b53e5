package org.trustload.gmssl.tlcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.jcajce.spec.SM2ParameterSpec;
import org.junit.jupiter.api.Test;
import org.trustload.pki.KeyStores;

/**
 * SM2 as the bc engine uses it, checked against BouncyCastle's JCA SM2 signature (an implementation of
 * its own: Z value, DER encoding) and by round trips; the handshakes with native Tongsuo are the proof
 * of the wire formats (NativeInteropIT).
 */
class Sm2Test {
    private static final SecureRandom RANDOM = new SecureRandom();

    private static KeyPair jcaKeyPair() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", KeyStores.bouncyCastle());
        g.initialize(new ECGenParameterSpec("sm2p256v1"), RANDOM);
        return g.generateKeyPair();
    }

    private static Sm2.PublicKey ours(KeyPair kp) {
        return Sm2.publicKey(SubjectPublicKeyInfo.getInstance(kp.getPublic().getEncoded()), false);
    }

    @Test
    void signaturesAgreeWithBouncyCastlesJcaSm3WithSm2InBothDirections() throws Exception {
        KeyPair kp = jcaKeyPair();
        byte[] message = "the transcript hash".getBytes(StandardCharsets.US_ASCII);
        byte[] mine = Sm2.sign(Sm2.privateKey(kp.getPrivate()), message, RANDOM);
        Signature v = Signature.getInstance("SM3withSM2", KeyStores.bouncyCastle());
        v.setParameter(new SM2ParameterSpec(Sm2.DEFAULT_ID));
        v.initVerify(kp.getPublic());
        v.update(message);
        assertThat(v.verify(mine)).isTrue();

        Signature s = Signature.getInstance("SM3withSM2", KeyStores.bouncyCastle());
        s.setParameter(new SM2ParameterSpec(Sm2.DEFAULT_ID));
        s.initSign(kp.getPrivate(), RANDOM);
        s.update(message);
        byte[] theirs = s.sign();
        assertThat(Sm2.verify(ours(kp), message, theirs)).isTrue();
        assertThat(Sm2.verify(ours(kp), "another message".getBytes(StandardCharsets.US_ASCII), theirs)).isFalse();
        assertThat(Sm2.verify(ours(jcaKeyPair()), message, theirs)).isFalse();
        assertThat(Sm2.verify(ours(kp), message, new byte[] {0x30, 0})).isFalse();
    }

    @Test
    void encryptionRoundTripsAndATamperedCiphertextIsRefused() throws Exception {
        KeyPair kp = jcaKeyPair();
        byte[] pms = new byte[48];
        RANDOM.nextBytes(pms);
        for (boolean kept : new boolean[] {false, true}) {
            Sm2.PublicKey pub = Sm2.publicKey(SubjectPublicKeyInfo.getInstance(kp.getPublic().getEncoded()), kept);
            byte[] c = Sm2.encrypt(pub, pms, RANDOM);
            assertThat(Sm2.decrypt(Sm2.privateKey(kp.getPrivate()), c)).isEqualTo(pms);
            byte[] bad = Arrays.copyOf(c, c.length);
            bad[bad.length - 1] ^= 1;
            assertThatThrownBy(() -> Sm2.decrypt(Sm2.privateKey(kp.getPrivate()), bad))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void bothSidesOfTheKeyExchangeGetTheSameKeyWithOrWithoutTheKeptStaticPart() throws Exception {
        Sm2.PrivateKey serverEnc = Sm2.privateKey(jcaKeyPair().getPrivate());
        Sm2.PrivateKey clientEnc = Sm2.privateKey(jcaKeyPair().getPrivate());
        Sm2.EphemeralKey serverEph = Sm2.ephemeral(RANDOM);
        Sm2.EphemeralKey clientEph = Sm2.ephemeral(RANDOM);
        byte[] server = Sm2.exchange(true, serverEnc, serverEph, clientEnc.pub, clientEph.point, 48);
        byte[] client = Sm2.exchange(false, clientEnc, clientEph, serverEnc.pub, serverEph.point, 48);
        assertThat(client).isEqualTo(server).hasSize(48);
        byte[] kept = Sm2.exchange(false, clientEnc, clientEph, serverEnc.pub,
                serverEnc.pub.q.multiply(Sm2.exchangeScalar(clientEnc, clientEph)).normalize(), serverEph.point, 48);
        assertThat(kept).isEqualTo(server);
        // another server ephemeral key, another secret
        assertThat(Sm2.exchange(false, clientEnc, clientEph, serverEnc.pub, Sm2.ephemeral(RANDOM).point, 48))
                .isNotEqualTo(server);
    }

    @Test
    void thePrfGivesTlsLengthsAndDependsOnEveryInput() {
        byte[] a = Prf.prf(new byte[48], Prf.MASTER_SECRET, new byte[32], new byte[32], 48);
        assertThat(a).hasSize(48);
        assertThat(Prf.prf(new byte[48], Prf.MASTER_SECRET, new byte[32], new byte[32], 100)).startsWith(a);
        assertThat(Prf.prf(new byte[48], Prf.KEY_EXPANSION, new byte[32], new byte[32], 48)).isNotEqualTo(a);
        assertThat(Prf.finished(new byte[48], Prf.CLIENT_FINISHED, new byte[32])).hasSize(12);
    }
}
