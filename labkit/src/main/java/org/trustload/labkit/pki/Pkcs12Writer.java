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
 * Writes a test PKI's PKCS#12 files with BouncyCastle's PFX builder, so that every key gets a
 * {@code localKeyID} of its own (its certificate's subject key identifier), which the JDK's writer does not
 * give. Keys under PBES2 at iteration count 1 ({@link TestPki}); not a general-purpose key store writer.
 * Why and how: docs/lab.md, "Certificate profile".
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
                                .setPRF(new AlgorithmIdentifier(PKCSObjectIdentifiers.id_hmacWithSHA256,
                                        DERNull.INSTANCE))
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
        return new ContentInfo(PKCSObjectIdentifiers.data,
                new DEROctetString(new DERSequence(v).getEncoded(ASN1Encoding.DER)));
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
