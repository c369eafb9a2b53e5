package org.trustload.gmssl.tlcp;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

/**
 * SM2 on BouncyCastle's low-level API (GB/T 32918): signatures (SM3, with the Z value of the default
 * ID {@code 1234567812345678} that TLCP uses), public-key encryption with the GM/T 0009 DER encoding
 * (SEQUENCE {x, y, C3, C2}) and the key exchange protocol (part 3), all on BouncyCastle's fast
 * custom sm2p256v1 curve. Points multiplied often (the base point; a peer's static key kept between
 * handshakes) keep BouncyCastle's precomputed tables in the point object.
 */
final class Sm2 {
    static final X9ECParameters PARAMS = CustomNamedCurves.getByName("sm2p256v1");
    static final ECCurve CURVE = PARAMS.getCurve();
    static final ECPoint G = PARAMS.getG();
    static final BigInteger N = PARAMS.getN();
    /** The user ID TLCP signs and exchanges keys with (GB/T 38636, Tongsuo's SM2_DEFAULT_ID). */
    static final byte[] DEFAULT_ID = "1234567812345678".getBytes(StandardCharsets.US_ASCII);
    private static final int W = N.bitLength() / 2 - 1;
    private static final BigInteger TWO_POW_W = BigInteger.ONE.shiftLeft(W);
    private static final FixedPointCombMultiplier COMB = new FixedPointCombMultiplier();
    private static final byte[] CURVE_PART = curvePart();

    private Sm2() {
    }

    /**
     * A public key with its Z value (default ID), computed once. A key that is {@code kept} (used for
     * many handshakes) is multiplied with a precomputed comb, built on first use and cached by
     * BouncyCastle in the point; a key used once is multiplied plainly, as building the comb would
     * cost more than it saves.
     */
    static final class PublicKey {
        final ECPoint q;
        final byte[] z;
        final boolean kept;

        PublicKey(ECPoint q, boolean kept) {
            this.q = q.normalize();
            this.z = z(this.q);
            this.kept = kept;
        }

        ECPoint multiply(BigInteger k) {
            return (kept ? COMB.multiply(q, k) : q.multiply(k)).normalize();
        }

        /** The uncompressed point. */
        byte[] encoded() {
            return q.getEncoded(false);
        }
    }

    /** A private key, its public key and (1 + d)^-1 for signing. */
    static final class PrivateKey {
        final BigInteger d;
        final BigInteger dPlus1Inverse;
        final PublicKey pub;

        PrivateKey(BigInteger d) {
            this.d = d;
            this.dPlus1Inverse = d.add(BigInteger.ONE).modInverse(N);
            this.pub = new PublicKey(COMB.multiply(G, d), true);
        }
    }

    /** An ephemeral key pair of the key exchange. */
    static final class EphemeralKey {
        final BigInteger r;
        final ECPoint point;
        /** x̄ of the point (GB/T 32918.3). */
        final BigInteger xBar;

        EphemeralKey(BigInteger r) {
            this.r = r;
            this.point = COMB.multiply(G, r).normalize();
            this.xBar = xBar(point);
        }
    }

    /** The key of a JCA SM2 private key (BouncyCastle's or any {@link ECPrivateKey}). */
    static PrivateKey privateKey(java.security.PrivateKey key) {
        if (!(key instanceof ECPrivateKey)) {
            throw new IllegalArgumentException("not an EC (SM2) private key: " + key.getAlgorithm());
        }
        return new PrivateKey(((ECPrivateKey) key).getS());
    }

    /** The SM2 public key of a DER SubjectPublicKeyInfo; {@code kept}: see {@link PublicKey}. */
    static PublicKey publicKey(SubjectPublicKeyInfo spki, boolean kept) {
        return new PublicKey(point(spki.getPublicKeyData().getOctets()), kept);
    }

    /** Decodes a point on sm2p256v1 and checks it is on the curve. */
    static ECPoint point(byte[] encoded) {
        ECPoint p = CURVE.decodePoint(encoded);
        if (p.isInfinity() || !p.isValid()) {
            throw new IllegalArgumentException("not a valid sm2p256v1 point");
        }
        return p;
    }

    static EphemeralKey ephemeral(SecureRandom random) {
        return new EphemeralKey(scalar(random));
    }

    /** SM3(Z || message) signed, DER {@code SEQUENCE {r, s}}. */
    static byte[] sign(PrivateKey key, byte[] message, SecureRandom random) {
        BigInteger e = hashWithZ(key.pub.z, message);
        while (true) {
            BigInteger k = scalar(random);
            BigInteger x1 = COMB.multiply(G, k).normalize().getAffineXCoord().toBigInteger();
            BigInteger r = e.add(x1).mod(N);
            if (r.signum() == 0 || r.add(k).equals(N)) {
                continue;
            }
            BigInteger s = key.dPlus1Inverse.multiply(k.subtract(r.multiply(key.d))).mod(N);
            if (s.signum() != 0) {
                return der(new ASN1Integer(r), new ASN1Integer(s));
            }
        }
    }

    /** Whether {@code signature} (DER) is {@code key}'s over SM3(Z || message). */
    static boolean verify(PublicKey key, byte[] message, byte[] signature) {
        BigInteger r;
        BigInteger s;
        try {
            ASN1Sequence seq = ASN1Sequence.getInstance(signature);
            if (seq.size() != 2) {
                return false;
            }
            r = ASN1Integer.getInstance(seq.getObjectAt(0)).getValue();
            s = ASN1Integer.getInstance(seq.getObjectAt(1)).getValue();
        } catch (RuntimeException e) {
            return false;
        }
        if (r.signum() <= 0 || r.compareTo(N) >= 0 || s.signum() <= 0 || s.compareTo(N) >= 0) {
            return false;
        }
        BigInteger t = r.add(s).mod(N);
        if (t.signum() == 0) {
            return false;
        }
        BigInteger e = hashWithZ(key.z, message);
        ECPoint p = ECAlgorithms.sumOfTwoMultiplies(G, s, key.q, t).normalize();
        if (p.isInfinity()) {
            return false;
        }
        return e.add(p.getAffineXCoord().toBigInteger()).mod(N).equals(r);
    }

    /** SM2 encryption, DER {@code SEQUENCE {x1, y1, C3, C2}} (GM/T 0009, as TLCP carries it). */
    static byte[] encrypt(PublicKey key, byte[] message, SecureRandom random) {
        while (true) {
            BigInteger k = scalar(random);
            ECPoint c1 = COMB.multiply(G, k).normalize();
            ECPoint s = key.multiply(k);
            byte[] x2 = s.getAffineXCoord().getEncoded();
            byte[] y2 = s.getAffineYCoord().getEncoded();
            byte[] t = kdf(message.length, x2, y2);
            if (allZero(t)) {
                continue;
            }
            byte[] c2 = new byte[message.length];
            for (int i = 0; i < c2.length; i++) {
                c2[i] = (byte) (message[i] ^ t[i]);
            }
            byte[] c3 = c3(x2, message, y2);
            return der(new ASN1Integer(c1.getAffineXCoord().toBigInteger()),
                    new ASN1Integer(c1.getAffineYCoord().toBigInteger()), new DEROctetString(c3),
                    new DEROctetString(c2));
        }
    }

    /** Decrypts {@link #encrypt}'s format; throws {@link IllegalArgumentException} when it does not check. */
    static byte[] decrypt(PrivateKey key, byte[] ciphertext) {
        ASN1Sequence seq = ASN1Sequence.getInstance(ciphertext);
        if (seq.size() != 4) {
            throw new IllegalArgumentException("SM2 ciphertext is not SEQUENCE {x, y, hash, ciphertext}");
        }
        BigInteger x = ASN1Integer.getInstance(seq.getObjectAt(0)).getValue();
        BigInteger y = ASN1Integer.getInstance(seq.getObjectAt(1)).getValue();
        byte[] c3 = ASN1OctetString.getInstance(seq.getObjectAt(2)).getOctets();
        byte[] c2 = ASN1OctetString.getInstance(seq.getObjectAt(3)).getOctets();
        ECPoint c1 = CURVE.validatePoint(x, y);
        ECPoint s = c1.multiply(key.d).normalize();
        byte[] x2 = s.getAffineXCoord().getEncoded();
        byte[] y2 = s.getAffineYCoord().getEncoded();
        byte[] t = kdf(c2.length, x2, y2);
        byte[] m = new byte[c2.length];
        for (int i = 0; i < m.length; i++) {
            m[i] = (byte) (c2[i] ^ t[i]);
        }
        if (!java.security.MessageDigest.isEqual(c3(x2, m, y2), c3)) {
            throw new IllegalArgumentException("SM2 ciphertext hash does not match");
        }
        return m;
    }

    /** C3 = SM3(x2 || M || y2). */
    private static byte[] c3(byte[] x2, byte[] m, byte[] y2) {
        SM3Digest d = new SM3Digest();
        d.update(x2, 0, x2.length);
        d.update(m, 0, m.length);
        d.update(y2, 0, y2.length);
        byte[] h = new byte[32];
        d.doFinal(h, 0);
        return h;
    }

    /**
     * The SM2 key exchange (GB/T 32918.3, without the optional confirmation): the shared key of
     * {@code length} bytes. In TLCP the server is the initiator (A) and the client the responder (B);
     * the static keys are both sides' encryption keys and both IDs are {@link #DEFAULT_ID}.
     */
    static byte[] exchange(boolean initiator, PrivateKey selfStatic, EphemeralKey self, PublicKey peerStatic,
            ECPoint peerEphemeral, int length) {
        return exchange(initiator, selfStatic, self, peerStatic, null, peerEphemeral, length);
    }

    /** t = (d + x̄·r) mod n of our side of the exchange. */
    static BigInteger exchangeScalar(PrivateKey selfStatic, EphemeralKey self) {
        return self.r.multiply(self.xBar).add(selfStatic.d).mod(N);
    }

    /**
     * The exchange with {@code staticPart} = [t]P of the peer's static key already computed (null: computed
     * here): a client that keeps its ephemeral key and talks to one server computes it once.
     */
    static byte[] exchange(boolean initiator, PrivateKey selfStatic, EphemeralKey self, PublicKey peerStatic,
            ECPoint staticPart, ECPoint peerEphemeral, int length) {
        BigInteger t = exchangeScalar(selfStatic, self);
        BigInteger tx = t.multiply(xBar(peerEphemeral)).mod(N);
        // U = [t](P + [x̄]R) = [t]P + [t·x̄]R (h = 1 on sm2p256v1): one interleaved multiplication, or one
        // multiplication of R when [t]P is known
        ECPoint u = (staticPart == null ? ECAlgorithms.sumOfTwoMultiplies(peerStatic.q, t, peerEphemeral, tx)
                : staticPart.add(peerEphemeral.multiply(tx))).normalize();
        if (u.isInfinity()) {
            throw new IllegalArgumentException("SM2 key exchange gave the point at infinity");
        }
        byte[] za = initiator ? selfStatic.pub.z : peerStatic.z;
        byte[] zb = initiator ? peerStatic.z : selfStatic.pub.z;
        return kdf(length, u.getAffineXCoord().getEncoded(), u.getAffineYCoord().getEncoded(), za, zb);
    }

    private static BigInteger xBar(ECPoint p) {
        BigInteger x = p.normalize().getAffineXCoord().toBigInteger();
        return x.and(TWO_POW_W.subtract(BigInteger.ONE)).add(TWO_POW_W);
    }

    /** A scalar in [1, n-1]. */
    static BigInteger scalar(SecureRandom random) {
        return BigIntegers.createRandomInRange(BigInteger.ONE, N.subtract(BigInteger.ONE), random);
    }

    private static BigInteger hashWithZ(byte[] z, byte[] message) {
        SM3Digest d = new SM3Digest();
        d.update(z, 0, z.length);
        d.update(message, 0, message.length);
        byte[] e = new byte[32];
        d.doFinal(e, 0);
        return new BigInteger(1, e);
    }

    /** Z = SM3(ENTL || ID || a || b || xG || yG || xA || yA) with the default ID. */
    private static byte[] z(ECPoint q) {
        SM3Digest d = new SM3Digest();
        d.update(CURVE_PART, 0, CURVE_PART.length);
        byte[] x = q.getAffineXCoord().getEncoded();
        byte[] y = q.getAffineYCoord().getEncoded();
        d.update(x, 0, x.length);
        d.update(y, 0, y.length);
        byte[] z = new byte[32];
        d.doFinal(z, 0);
        return z;
    }

    private static byte[] curvePart() {
        int bits = DEFAULT_ID.length * 8;
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.write(bits >> 8);
        b.write(bits);
        b.writeBytes(DEFAULT_ID);
        b.writeBytes(CURVE.getA().getEncoded());
        b.writeBytes(CURVE.getB().getEncoded());
        ECPoint g = G.normalize();
        b.writeBytes(g.getAffineXCoord().getEncoded());
        b.writeBytes(g.getAffineYCoord().getEncoded());
        return b.toByteArray();
    }

    /** The SM2 KDF (GB/T 32918.4 5.4.3, as X9.63 with SM3): SM3(parts || ct) blocks, ct from 1. */
    private static byte[] kdf(int length, byte[]... parts) {
        byte[] out = new byte[length];
        SM3Digest d = new SM3Digest();
        byte[] block = new byte[32];
        for (int ct = 1, off = 0; off < length; ct++, off += 32) {
            for (byte[] p : parts) {
                d.update(p, 0, p.length);
            }
            counter(d, ct);
            d.doFinal(block, 0);
            System.arraycopy(block, 0, out, off, Math.min(32, length - off));
        }
        return out;
    }

    private static void counter(SM3Digest d, int ct) {
        d.update((byte) (ct >>> 24));
        d.update((byte) (ct >>> 16));
        d.update((byte) (ct >>> 8));
        d.update((byte) ct);
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] der(org.bouncycastle.asn1.ASN1Encodable... parts) {
        try {
            return new DERSequence(parts).getEncoded(ASN1Encoding.DER);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
