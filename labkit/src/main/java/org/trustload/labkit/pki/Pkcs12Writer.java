package org.trustload.labkit.pki;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.DERBMPString;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.AuthenticatedSafe;
import org.bouncycastle.asn1.pkcs.ContentInfo;
import org.bouncycastle.asn1.pkcs.MacData;
import org.bouncycastle.asn1.pkcs.PKCS12PBEParams;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.Pfx;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.DigestInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.operator.MacCalculator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS12SafeBag;
import org.bouncycastle.pkcs.PKCS12SafeBagBuilder;
import org.bouncycastle.pkcs.bc.BcPKCS12MacCalculatorBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS12SafeBagBuilder;
import org.bouncycastle.pkcs.jcajce.JcePKCSPBEOutputEncryptorBuilder;
import org.trustload.pki.KeyStores;

/**
 * Writes the PKCS#12 files of a test PKI with BouncyCastle's PFX builder, because the JDK's writer
 * gives every key the {@code localKeyID} {@code "Time <millis>"}: keys stored in the same
 * millisecond share one, and a tool that pairs key and certificate by that attribute (as PKCS#12
 * intends) can pick the wrong certificate.
 *
 * <p>Here each key and its end-entity certificate carry a {@code localKeyID} equal to the SHA-1 of
 * the certificate's subjectPublicKey bits, which is also the certificate's Subject Key Identifier
 * (RFC 5280 section 4.2.1.2, method 1): distinct per key and checkable against the certificate. The
 * other certificates of the chains (the CAs) are written once each, without a {@code localKeyID}, as
 * the JDK does. The file opens with the JDK's and BouncyCastle's key stores and with OpenSSL.
 *
 * <p>Keys: PBES2 (PBKDF2 with HMAC-SHA256, AES-256-CBC), iteration count 1 (see {@link TestPki});
 * certificates unencrypted (public data); integrity: HMAC-SHA256 MAC, 10,000 iterations (the JDK's
 * default, paid once per file opened).
 */
public final class Pkcs12Writer {
    private static final int MAC_ITERATIONS = 10_000;

    private Pkcs12Writer() {
    }

    /**
     * Writes {@code entries} (alias to private key and chain, end-entity certificate first) into
     * {@code file}, replacing it.
     */
    public static void write(Path file, Map<String, KeyEntry> entries, char[] password)
            throws IOException, GeneralSecurityException {
        try {
            List<PKCS12SafeBag> certBags = new ArrayList<>();
            List<PKCS12SafeBag> keyBags = new ArrayList<>();
            Set<X509Certificate> caCertsWritten = new HashSet<>();
            Set<String> ids = new HashSet<>();
            for (Map.Entry<String, KeyEntry> e : entries.entrySet()) {
                String alias = e.getKey();
                List<X509Certificate> chain = e.getValue().chain();
                X509Certificate leaf = chain.get(0);
                byte[] id = localKeyId(leaf);
                if (!ids.add(java.util.HexFormat.of().formatHex(id))) {
                    throw new GeneralSecurityException("two entries of " + file + " have the same key (" + alias + ")");
                }
                PKCS12SafeBagBuilder cert = new JcaPKCS12SafeBagBuilder(leaf);
                cert.addBagAttribute(PKCS12SafeBag.friendlyNameAttribute, new DERBMPString(alias));
                cert.addBagAttribute(PKCS12SafeBag.localKeyIdAttribute, new DEROctetString(id));
                certBags.add(cert.build());
                for (X509Certificate ca : chain.subList(1, chain.size())) {
                    if (caCertsWritten.add(ca)) {
                        certBags.add(new JcaPKCS12SafeBagBuilder(ca).build());
                    }
                }
                // one encryptor per key: each gets its own salt and IV
                PKCS12SafeBagBuilder key = new JcaPKCS12SafeBagBuilder(e.getValue().key(),
                        new JcePKCSPBEOutputEncryptorBuilder(NISTObjectIdentifiers.id_aes256_CBC)
                                .setProvider(KeyStores.bouncyCastle())
                                .setPRF(new AlgorithmIdentifier(PKCSObjectIdentifiers.id_hmacWithSHA256, DERNull.INSTANCE))
                                .setIterationCount(1)
                                .build(password));
                key.addBagAttribute(PKCS12SafeBag.friendlyNameAttribute, new DERBMPString(alias));
                key.addBagAttribute(PKCS12SafeBag.localKeyIdAttribute, new DEROctetString(id));
                keyBags.add(key.build());
            }
            // AuthenticatedSafe: one plain-data SafeContents with every certificate, one with every key
            // (BouncyCastle's PFX builder would put each unencrypted bag in a ContentInfo of its own)
            byte[] authSafe = new AuthenticatedSafe(new ContentInfo[] {data(certBags), data(keyBags)})
                    .getEncoded(ASN1Encoding.DER);
            BcPKCS12MacCalculatorBuilder macBuilder = new BcPKCS12MacCalculatorBuilder(new SHA256Digest(),
                    new AlgorithmIdentifier(NISTObjectIdentifiers.id_sha256, DERNull.INSTANCE))
                    .setIterationCount(MAC_ITERATIONS);
            MacCalculator mac = macBuilder.build(password);
            try (OutputStream out = mac.getOutputStream()) {
                out.write(authSafe);
            }
            PKCS12PBEParams macParams = PKCS12PBEParams.getInstance(mac.getAlgorithmIdentifier().getParameters());
            MacData macData = new MacData(new DigestInfo(macBuilder.getDigestAlgorithmIdentifier(), mac.getMac()),
                    macParams.getIV(), macParams.getIterations().intValue());
            Pfx pfx = new Pfx(new ContentInfo(PKCSObjectIdentifiers.data, new DEROctetString(authSafe)), macData);
            Files.write(file, pfx.getEncoded(ASN1Encoding.DER));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot build " + file + ": " + e.getMessage(), e);
        }
    }

    private static ContentInfo data(List<PKCS12SafeBag> bags) throws IOException {
        ASN1EncodableVector v = new ASN1EncodableVector(bags.size());
        for (PKCS12SafeBag b : bags) {
            v.add(b.toASN1Structure());
        }
        return new ContentInfo(PKCSObjectIdentifiers.data, new DEROctetString(new DERSequence(v).getEncoded(ASN1Encoding.DER)));
    }

    /** SHA-1 of the certificate's subjectPublicKey bits: the RFC 5280 method-1 key identifier. */
    static byte[] localKeyId(X509Certificate certificate) throws GeneralSecurityException {
        byte[] bits = SubjectPublicKeyInfo.getInstance(certificate.getPublicKey().getEncoded())
                .getPublicKeyData().getBytes();
        return MessageDigest.getInstance("SHA-1").digest(bits);
    }

    /** A private key with its chain (end-entity certificate first). */
    public record KeyEntry(PrivateKey key, List<X509Certificate> chain) {
        public KeyEntry {
            chain = List.copyOf(chain);
        }
    }
}
