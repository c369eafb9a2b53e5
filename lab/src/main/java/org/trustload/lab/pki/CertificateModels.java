package org.trustload.lab.pki;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * Lacuna's {@code CertificateModel} of a certificate, as the Rest PKI routes return it with a signature or
 * an authentication: subject and issuer names ({@code NameModel}), decimal serial number, validity,
 * thumbprints, the issuer's model nested, and empty ICP-Brasil / Italy fields (the lab's certificates are
 * neither). Lacuna's Java client needs the names, the serial number and the two national-field objects
 * to be present. Models are kept per certificate (the lab serves a fixed set of users).
 */
final class CertificateModels {
    /** Beyond this many cached models the cache starts again (a client may send any certificate). */
    private static final int MAX_CACHED = 20_000;
    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    private static final HexFormat HEX = HexFormat.of();

    private final Map<X509Certificate, Map<String, Object>> cache = new ConcurrentHashMap<>();

    /**
     * The model of {@code path.get(0)} with its issuers nested ({@code path}: signer first, trust anchor
     * last; a single certificate is fine).
     */
    Map<String, Object> of(List<X509Certificate> path) {
        return of(path, 0);
    }

    private Map<String, Object> of(List<X509Certificate> path, int i) {
        X509Certificate cert = path.get(i);
        Map<String, Object> m = cache.get(cert);
        if (m == null) {
            m = build(cert, i + 1 < path.size() ? of(path, i + 1) : null);
            if (cache.size() >= MAX_CACHED) {
                cache.clear();
            }
            cache.put(cert, m);
        }
        return m;
    }

    private static Map<String, Object> build(X509Certificate cert, Map<String, Object> issuer) {
        byte[] der;
        try {
            der = cert.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("a parsed certificate cannot be encoded again", e);
        }
        X500Name subject = X500Name.getInstance(cert.getSubjectX500Principal().getEncoded());
        X500Name issuerName = X500Name.getInstance(cert.getIssuerX500Principal().getEncoded());
        byte[] sha256 = digest("SHA-256", der);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("subjectName", name(subject, cert.getSubjectX500Principal().getName()));
        m.put("issuerName", name(issuerName, cert.getIssuerX500Principal().getName()));
        m.put("issuerDisplayName", display(issuerName));
        m.put("serialNumber", cert.getSerialNumber().toString());
        m.put("validityStart", DATE.format(cert.getNotBefore().toInstant().atOffset(ZoneOffset.UTC)));
        m.put("validityEnd", DATE.format(cert.getNotAfter().toInstant().atOffset(ZoneOffset.UTC)));
        m.put("issuer", issuer);
        m.put("pkiBrazil", Map.of("certificateType", "Unknown"));
        m.put("pkiItaly", Map.of("certificateType", "Undefined"));
        m.put("binaryThumbprintSHA256", sha256);
        m.put("thumbprint", HEX.formatHex(digest("SHA-1", der)));
        m.put("thumbprintSHA256", HEX.formatHex(sha256));
        m.put("subjectCommonName", first(subject, BCStyle.CN));
        m.put("subjectDisplayName", display(subject));
        m.put("subjectIdentifier", null);
        m.put("emailAddress", first(subject, BCStyle.EmailAddress));
        m.put("organization", first(subject, BCStyle.O));
        m.put("organizationIdentifier", null);
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, Object> name(X500Name n, String rfc2253) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("country", first(n, BCStyle.C));
        m.put("organization", first(n, BCStyle.O));
        m.put("organizationUnit", first(n, BCStyle.OU));
        m.put("dnQualifier", first(n, BCStyle.DN_QUALIFIER));
        m.put("stateName", first(n, BCStyle.ST));
        m.put("commonName", first(n, BCStyle.CN));
        m.put("serialNumber", first(n, BCStyle.SERIALNUMBER));
        m.put("locality", first(n, BCStyle.L));
        m.put("title", first(n, BCStyle.T));
        m.put("surname", first(n, BCStyle.SURNAME));
        m.put("givenName", first(n, BCStyle.GIVENNAME));
        m.put("initials", first(n, BCStyle.INITIALS));
        m.put("pseudonym", first(n, BCStyle.PSEUDONYM));
        m.put("generationQualifier", first(n, BCStyle.GENERATION));
        m.put("emailAddress", first(n, BCStyle.EmailAddress));
        m.put("dnString", rfc2253);
        return m;
    }

    private static String display(X500Name n) {
        String cn = first(n, BCStyle.CN);
        return cn != null ? cn : n.toString();
    }

    private static String first(X500Name n, ASN1ObjectIdentifier type) {
        RDN[] rdns = n.getRDNs(type);
        return rdns.length == 0 ? null : IETFUtils.valueToString(rdns[0].getFirst().getValue());
    }

    private static byte[] digest(String algorithm, byte[] data) {
        try {
            return MessageDigest.getInstance(algorithm).digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from the JDK", e);
        }
    }
}
