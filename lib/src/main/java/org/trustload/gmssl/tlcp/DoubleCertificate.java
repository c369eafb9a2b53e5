package org.trustload.gmssl.tlcp;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpException;

/**
 * One side's own SM2 double certificate (GB/T 38636: a signing and an encryption certificate) as the
 * handshake uses it: both private keys and the Certificate message's list (signing certificate,
 * encryption certificate, then the signing certificate's CA chain without a self-signed root).
 */
final class DoubleCertificate {
    final Sm2.PrivateKey sign;
    final Sm2.PrivateKey enc;
    final List<byte[]> certificates;

    private DoubleCertificate(Sm2.PrivateKey sign, Sm2.PrivateKey enc, List<byte[]> certificates) {
        this.sign = sign;
        this.enc = enc;
        this.certificates = certificates;
    }

    static DoubleCertificate of(TlcpCredentials c) throws TlcpException {
        if (c.enc() == null) {
            throw new TlcpException(TlcpException.CONFIG_ERROR,
                    "TLCP needs the encryption key pair as well as the signing pair");
        }
        try {
            List<byte[]> certs = new ArrayList<>();
            certs.add(c.sign().certificate().getEncoded());
            certs.add(c.enc().certificate().getEncoded());
            List<X509Certificate> chain = c.sign().chain();
            for (int i = 1; i < chain.size(); i++) {
                X509Certificate ca = chain.get(i);
                if (!ca.getSubjectX500Principal().equals(ca.getIssuerX500Principal())) {
                    certs.add(ca.getEncoded());
                }
            }
            return new DoubleCertificate(Sm2.privateKey(c.sign().privateKey()), Sm2.privateKey(c.enc().privateKey()),
                    List.copyOf(certs));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new TlcpException(TlcpException.CONFIG_ERROR, "not an SM2 key pair: " + e.getMessage(), e);
        }
    }

    /** The Certificate message body. */
    HandshakeIo.Writer certificateMessage() {
        HandshakeIo.Writer w = new HandshakeIo.Writer();
        int at = w.position();
        w.u24(0);
        int total = 0;
        for (byte[] d : certificates) {
            w.vector24(d);
            total += 3 + d.length;
        }
        w.patch24(at, total);
        return w;
    }

    /** CertificateVerify: the signing key's SM2 signature of the transcript hash, DER in a 2-byte vector. */
    HandshakeIo.Writer certificateVerify(byte[] transcriptHash, SecureRandom random) {
        return new HandshakeIo.Writer().vector16(Sm2.sign(sign, transcriptHash, random));
    }
}
