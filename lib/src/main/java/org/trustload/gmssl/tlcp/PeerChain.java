package org.trustload.gmssl.tlcp;

import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.x509.Certificate;
import org.trustload.gmssl.Sm2TrustManager;
import org.trustload.pki.KeyStores;

/**
 * A TLCP peer's Certificate message: the signing certificate first, the encryption certificate second
 * (GB/T 38636 and Tongsuo's order), then CA certificates. Validation checks both leaves' paths to a
 * trust anchor (BouncyCastle's PKIX, no revocation), as Tongsuo does.
 */
final class PeerChain {
    final List<byte[]> der;
    final Sm2.PublicKey sign;
    final Sm2.PublicKey enc;

    private PeerChain(List<byte[]> der, Sm2.PublicKey sign, Sm2.PublicKey enc) {
        this.der = der;
        this.sign = sign;
        this.enc = enc;
    }

    /** The encryption certificate as the ECC ServerKeyExchange signs it: a 3-byte length, then its DER. */
    byte[] encCertificateVector() {
        byte[] e = der.get(1);
        byte[] out = new byte[3 + e.length];
        out[0] = (byte) (e.length >>> 16);
        out[1] = (byte) (e.length >>> 8);
        out[2] = (byte) e.length;
        System.arraycopy(e, 0, out, 3, e.length);
        return out;
    }

    /** Reads the certificate list of a Certificate message body. */
    static List<byte[]> read(HandshakeIo.Reader m) throws TlcpAlert {
        HandshakeIo.Reader list = new HandshakeIo.Reader(m.vector24());
        m.end();
        List<byte[]> out = new ArrayList<>();
        while (list.remaining() > 0) {
            out.add(list.vector24());
        }
        return out;
    }

    /**
     * Parses the keys and, with {@code trust}, validates both paths.
     *
     * @param kept the keys serve many handshakes (their multiplication tables are worth building)
     */
    static PeerChain check(List<byte[]> der, Sm2TrustManager trust, boolean server, boolean kept) throws TlcpAlert {
        if (der.size() < 2) {
            throw TlcpAlert.send(TlcpAlert.BAD_CERTIFICATE, (server ? "server" : "client") + " sent " + der.size()
                    + " certificate(s): TLCP needs the signing and the encryption certificate");
        }
        Sm2.PublicKey sign;
        Sm2.PublicKey enc;
        try {
            sign = Sm2.publicKey(Certificate.getInstance(der.get(0)).getSubjectPublicKeyInfo(), kept);
            enc = Sm2.publicKey(Certificate.getInstance(der.get(1)).getSubjectPublicKeyInfo(), kept);
        } catch (RuntimeException e) {
            throw TlcpAlert.send(TlcpAlert.UNSUPPORTED_CERTIFICATE,
                    "not an SM2 certificate pair: " + e.getMessage(), e);
        }
        if (trust != null) {
            try {
                CertificateFactory cf = CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle());
                List<X509Certificate> certs = new ArrayList<>();
                for (byte[] d : der) {
                    certs.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(d)));
                }
                X509Certificate[] signPath = new X509Certificate[certs.size() - 1];
                X509Certificate[] encPath = new X509Certificate[certs.size() - 1];
                signPath[0] = certs.get(0);
                encPath[0] = certs.get(1);
                for (int i = 2; i < certs.size(); i++) {
                    signPath[i - 1] = certs.get(i);
                    encPath[i - 1] = certs.get(i);
                }
                if (server) {
                    trust.checkServerTrusted(signPath, "SM2");
                    trust.checkServerTrusted(encPath, "SM2");
                } else {
                    trust.checkClientTrusted(signPath, "SM2");
                    trust.checkClientTrusted(encPath, "SM2");
                }
            } catch (CertificateException e) {
                String m = String.valueOf(e.getMessage());
                int alert = m.contains("expired") ? TlcpAlert.CERTIFICATE_EXPIRED
                        : m.contains("not trusted") ? TlcpAlert.UNKNOWN_CA : TlcpAlert.BAD_CERTIFICATE;
                throw TlcpAlert.send(alert, m, e);
            }
        }
        return new PeerChain(der, sign, enc);
    }
}
