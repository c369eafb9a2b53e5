package org.trustload.pki;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;

import javax.security.auth.x500.X500Principal;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.ExternalSigningSupport;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.SignatureOptions;
import org.bouncycastle.asn1.ASN1Set;
import org.bouncycastle.asn1.DERSet;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * PAdES signatures on PDFBox 3 with an incremental update: PAdES-B (SubFilter
 * {@code ETSI.CAdES.detached}; the CMS signed attributes are content-type, message-digest and
 * signing-certificate-v2 — no signing-time, the time is the dictionary's /M) and PAdES-T (a signature
 * timestamp as unsigned attribute of the CMS). Pages are never rendered.
 *
 * <p>Two steps: {@link #prepare} writes the incremental update with a zero-filled /Contents placeholder
 * and returns the to-be-signed bytes (the DER signed attributes); {@link Prepared#complete} builds the
 * CMS and writes it, hex-encoded, into the placeholder. The prepared PDF never changes after step one,
 * so {@link Prepared#state()} can be kept by a stateless server and rebuilt with {@link #restore}.
 * Thread-safe.
 */
public final class PadesSigner {
    private PadesSigner() {
    }

    /** Signs {@code pdf} with {@code key} (one step) and returns the signed PDF. */
    public static byte[] sign(byte[] pdf, KeyMaterial key, SignOptions options) throws PkiException {
        Prepared p = prepare(pdf, key.chain(), options);
        return p.complete(key.sign(p.signatureAlgorithm(), p.toBeSigned()), false);
    }

    /**
     * Step one: adds an (invisible) signature field and writes the incremental update with a placeholder.
     *
     * @throws PkiException {@link PkiException#INVALID_DOCUMENT} when {@code pdf} cannot be parsed
     */
    public static Prepared prepare(byte[] pdf, List<X509Certificate> chain, SignOptions options) throws PkiException {
        String digest = PreparedSignature.digest(pdf, chain, options);
        X509Certificate signer = chain.get(0);
        Instant time = options.signingTime() != null ? options.signingTime() : Instant.now();
        int reserve = options.signatureSize() > 0 ? options.signatureSize() : autoSize(chain, options.level());

        PDDocument doc;
        try {
            doc = Loader.loadPDF(pdf);
        } catch (IOException | RuntimeException e) {
            throw new PkiException(PkiException.INVALID_DOCUMENT, "not a readable PDF", e);
        }
        byte[] prepared;
        int[] byteRange;
        try (doc; SignatureOptions so = new SignatureOptions()) {
            if (doc.isEncrypted()) {
                throw new PkiException(PkiException.INVALID_DOCUMENT, "encrypted PDFs are not supported");
            }
            if (doc.getNumberOfPages() == 0) {
                throw new PkiException(PkiException.INVALID_DOCUMENT, "PDF has no pages");
            }
            PDSignature sig = new PDSignature();
            sig.setFilter(PDSignature.FILTER_ADOBE_PPKLITE);
            sig.setSubFilter(PDSignature.SUBFILTER_ETSI_CADES_DETACHED);
            sig.setName(options.signerName() != null ? options.signerName() : commonName(signer));
            if (options.reason() != null) {
                sig.setReason(options.reason());
            }
            if (options.location() != null) {
                sig.setLocation(options.location());
            }
            Calendar cal = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
            cal.setTimeInMillis(time.getEpochSecond() * 1000L);
            sig.setSignDate(cal);
            so.setPreferredSignatureSize(reserve);
            doc.addSignature(sig, so);
            ByteArrayOutputStream out = new ByteArrayOutputStream(pdf.length + 2 * reserve + 8192);
            ExternalSigningSupport ext = doc.saveIncrementalForExternalSigning(out);
            ext.setSignature(new byte[0]);
            prepared = out.toByteArray();
            byteRange = sig.getByteRange();
        } catch (IOException | RuntimeException e) {
            throw new PkiException(PkiException.INVALID_DOCUMENT, "cannot add a signature to this PDF", e);
        }
        if (byteRange == null || byteRange.length != 4 || byteRange[0] != 0
                || (long) byteRange[2] + byteRange[3] != prepared.length) {
            throw new PkiException(PkiException.SIGNING_ERROR, "unexpected byte range after saving");
        }
        MessageDigest md = CmsSupport.messageDigest(digest);
        md.update(prepared, 0, byteRange[1]);
        md.update(prepared, byteRange[2], byteRange[3]);
        DERSet attrs = CmsSupport.signedAttributes(digest, md.digest(), signer, null);
        return new Prepared(List.copyOf(chain), digest, options.level(), attrs, prepared, byteRange[1], byteRange[2],
                options.timestampSource());
    }

    /**
     * Rebuilds a {@link Prepared} from {@link Prepared#state()}.
     *
     * @param tsa the timestamp source for level T, else ignored
     */
    public static Prepared restore(byte[] state, TimestampSource tsa) throws PkiException {
        CmsSupport.State st = CmsSupport.decodeState("PAdES", state);
        ASN1Set attrs = PreparedSignature.restoredAttributes(st, tsa);
        if (st.numbers.length != 2 || st.numbers[0] <= 0 || st.numbers[1] > st.document.length
                || st.numbers[1] <= st.numbers[0]) {
            throw new PkiException(PkiException.INVALID_DOCUMENT, "not a valid two-step state");
        }
        return new Prepared(st.chain, st.digest, st.level, attrs, st.document, (int) st.numbers[0],
                (int) st.numbers[1], tsa);
    }

    private static int autoSize(List<X509Certificate> chain, SignOptions.Level level) {
        int certs = 0;
        for (X509Certificate c : chain) {
            try {
                certs += c.getEncoded().length;
            } catch (java.security.cert.CertificateEncodingException e) {
                certs += 2048;
            }
        }
        // attributes + signature value (RSA-4096 is 512 bytes) + ASN.1 overhead; a token with its TSA chain
        return certs + 2048 + (level == SignOptions.Level.T ? 10240 : 0);
    }

    static String commonName(X509Certificate cert) {
        X500Name name = X500Name.getInstance(cert.getSubjectX500Principal().getEncoded());
        RDN[] cn = name.getRDNs(BCStyle.CN);
        if (cn.length > 0) {
            return IETFUtils.valueToString(cn[0].getFirst().getValue());
        }
        return cert.getSubjectX500Principal().getName(X500Principal.RFC2253);
    }

    /** A PAdES signature waiting for its signature value: the CMS goes into the prepared PDF's placeholder. */
    public static final class Prepared extends PreparedSignature {
        private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

        private final byte[] preparedPdf;
        private final int contentsStart;
        private final int contentsEnd;

        private Prepared(List<X509Certificate> chain, String digest, SignOptions.Level level, ASN1Set signedAttrs,
                byte[] preparedPdf, int contentsStart, int contentsEnd, TimestampSource tsa) throws PkiException {
            super(chain, digest, level, signedAttrs, tsa);
            this.preparedPdf = preparedPdf;
            this.contentsStart = contentsStart;
            this.contentsEnd = contentsEnd;
        }

        @Override
        byte[] encapsulated() {
            return null;
        }

        /**
         * Writes the CMS into the placeholder and returns the signed PDF.
         *
         * @throws PkiException {@link PkiException#SIGNING_ERROR} when the CMS is larger than the reserved
         *                      space ({@link SignOptions.Builder#signatureSize})
         */
        @Override
        byte[] place(byte[] cms) throws PkiException {
            int room = contentsEnd - contentsStart - 2;
            if (cms.length * 2 > room) {
                throw new PkiException(PkiException.SIGNING_ERROR, "signature larger than the reserved space",
                        "CMS " + cms.length + " bytes, reserved " + room / 2, null);
            }
            byte[] out = preparedPdf.clone();
            int pos = contentsStart + 1;
            for (byte b : cms) {
                out[pos++] = HEX[(b >> 4) & 0xF];
                out[pos++] = HEX[b & 0xF];
            }
            return out;
        }

        /**
         * Everything needed to finish later, as bytes (DER): options, signed attributes, chain, and the
         * prepared PDF with its placeholder offsets. Contains no key and no secret.
         */
        @Override
        public byte[] state() {
            return CmsSupport.encodeState("PAdES", digest, level, false, toBeSigned, chain, preparedPdf,
                    contentsStart, contentsEnd);
        }
    }
}
