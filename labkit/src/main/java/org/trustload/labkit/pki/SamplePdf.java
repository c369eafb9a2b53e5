package org.trustload.labkit.pki;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Calendar;
import java.util.SplittableRandom;
import java.util.TimeZone;

import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdfwriter.compress.CompressParameters;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/**
 * A deterministic sample PDF of text pages (Helvetica, compressed content streams, classic xref) whose
 * size is close to a target: the same target always gives the same bytes. {@code generate(137 * 1024)}
 * is the 137 KB document of the published signature-server scenario: 140,576 bytes (137.3 KiB) with PDFBox
 * 3.0.8 on Java 17 and 25 (checked 2026-11-29, {@code SamplePdfTest}). Before PDFBox 3.0.8 one JVM was seen
 * giving 186,428 bytes for the same call (the cause was not found); figures measured then say which size they used.
 */
public final class SamplePdf {
    /** The size of the published scenario's document. */
    public static final int SCENARIO_BYTES = 137 * 1024;

    private static final String[] WORDS = ("signature server load test certificate authority revocation list "
            + "timestamp token digest document contract clause party agreement payment invoice delivery "
            + "schedule warranty liability notice term period amount total account service level response "
            + "latency throughput request client thread user hour minute second annex section article")
            .split(" ");
    private static final int LINES_PER_PAGE = 48;

    private SamplePdf() {
    }

    /**
     * @param targetBytes wanted size (at least 2000); the result is within a few percent of it
     */
    public static byte[] generate(int targetBytes) {
        if (targetBytes < 2000) {
            throw new IllegalArgumentException("target size must be at least 2000 bytes");
        }
        // a document with one empty page is the base; refine the bytes per full page from real builds
        int base = build(0, 0).length;
        int pages = 4;
        int perPage = Math.max(1, (build(pages, 0).length - base) / pages);
        byte[] best = null;
        for (int round = 0; round < 4; round++) {
            int n = Math.max(1, (targetBytes - base) / perPage);
            best = build(n, 0);
            int newPerPage = Math.max(1, (best.length - base) / n);
            if (n == pages || newPerPage == perPage) {
                pages = n;
                break;
            }
            pages = n;
            perPage = newPerPage;
        }
        while (best.length > targetBytes && pages > 1) {
            best = build(--pages, 0);
        }
        int remaining = targetBytes - best.length;
        if (remaining > 0) {
            int lines = Math.min(LINES_PER_PAGE, Math.max(1, remaining * LINES_PER_PAGE / perPage));
            byte[] more = build(pages, lines);
            if (Math.abs(more.length - targetBytes) < Math.abs(remaining)) {
                best = more;
            }
        }
        return best;
    }

    private static byte[] build(int fullPages, int extraLines) {
        try (PDDocument doc = new PDDocument()) {
            SplittableRandom rnd = new SplittableRandom(20240137L);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            int pages = fullPages + (extraLines > 0 || fullPages == 0 ? 1 : 0);
            for (int p = 0; p < pages; p++) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                int lines = p < fullPages ? LINES_PER_PAGE : extraLines;
                try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                    cs.beginText();
                    cs.setFont(font, 10);
                    cs.setLeading(15);
                    cs.newLineAtOffset(50, 790);
                    cs.showText("TrustLoad sample document - page " + (p + 1));
                    cs.newLine();
                    for (int l = 0; l < lines; l++) {
                        StringBuilder sb = new StringBuilder(100);
                        // digits Helvetica can show in any locale
                        sb.append(String.format(java.util.Locale.ROOT, "%04d ", rnd.nextInt(10000)));
                        while (sb.length() < 95) {
                            sb.append(WORDS[rnd.nextInt(WORDS.length)]).append(' ');
                        }
                        cs.showText(sb.toString());
                        cs.newLine();
                    }
                    cs.endText();
                }
            }
            PDDocumentInformation info = doc.getDocumentInformation();
            info.setTitle("TrustLoad sample document");
            info.setProducer("TrustLoad");
            Calendar cal = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
            cal.setTimeInMillis(1_700_000_000_000L);
            info.setCreationDate(cal);
            COSArray id = new COSArray();
            id.add(new COSString("trustload-sample".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            id.add(new COSString("trustload-sample".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            doc.getDocument().getTrailer().setItem(org.apache.pdfbox.cos.COSName.ID, id);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            doc.save(out, CompressParameters.NO_COMPRESSION);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
