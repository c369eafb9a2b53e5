package org.trustload.jmeter.pki;

import org.apache.jmeter.samplers.SampleResult;
import org.trustload.pki.PkiException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;

/** The one place PKI elements turn outcomes and failures into a {@link SampleResult}. */
final class PkiResults {
    /** Response code of an unexpected client-side exception. */
    static final String CLIENT_ERROR = "clientError";

    private PkiResults() {
    }

    static void ok(SampleResult res, String summary, String body) {
        res.setSuccessful(true);
        res.setResponseCodeOK();
        res.setResponseMessage(summary);
        res.setResponseData(body, StandardCharsets.UTF_8.name());
        res.setDataType(SampleResult.TEXT);
    }

    static void fail(SampleResult res, PkiException e) {
        fail(res, e.category(), e.getMessage(), e.detail());
        if (e.isConfigError()) {
            // The same request cannot succeed: one failed sample per thread, not one per iteration.
            res.setStopThread(true);
        }
    }

    static void fail(SampleResult res, String code, String message, String detail) {
        if (res.getEndTime() == 0) {
            res.sampleEnd();
        }
        res.setSuccessful(false);
        res.setResponseCode(code);
        res.setResponseMessage(message);
        res.setResponseData(detail == null ? "" : detail, StandardCharsets.UTF_8.name());
        res.setDataType(SampleResult.TEXT);
    }

    static void unexpected(SampleResult res, RuntimeException e) {
        fail(res, CLIENT_ERROR, "unexpected " + e.getClass().getSimpleName(), String.valueOf(e));
    }

    static int parseInt(String name, String value, int blankDefault) throws PkiException {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            return blankDefault;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, name + " is not a number: '" + value + "'");
        }
    }

    /** Files read once per JVM (documents are read by every thread of a load test). */
    private static final ConcurrentHashMap<Path, byte[]> FILES = new ConcurrentHashMap<>();

    /** The input bytes: a file (cached), or a variable (base64 when {@code base64}, else UTF-8 text). */
    static byte[] input(String file, String variable, boolean base64, String what) throws PkiException {
        if (file != null && !file.isBlank()) {
            Path p = Path.of(file.trim());
            byte[] cached = FILES.get(p);
            if (cached != null) {
                return cached;
            }
            try {
                byte[] data = Files.readAllBytes(p);
                FILES.putIfAbsent(p, data);
                return data;
            } catch (java.io.IOException e) {
                throw new PkiException(PkiException.CONFIG_ERROR, what + " file cannot be read", p + ": " + e, e);
            }
        }
        if (variable != null && !variable.isBlank()) {
            var vars = org.apache.jmeter.threads.JMeterContextService.getContext().getVariables();
            String v = vars == null ? null : vars.get(variable.trim());
            if (v == null) {
                throw new PkiException(PkiException.CONFIG_ERROR, what + " variable '" + variable.trim() + "' is not set");
            }
            if (!base64) {
                return v.getBytes(StandardCharsets.UTF_8);
            }
            try {
                return Base64.getMimeDecoder().decode(v);
            } catch (IllegalArgumentException e) {
                throw new PkiException(PkiException.CONFIG_ERROR, what + " variable '" + variable.trim()
                        + "' is not base64");
            }
        }
        throw new PkiException(PkiException.CONFIG_ERROR, "no " + what + ": set a file or a variable");
    }

    private static final ConcurrentHashMap<String, org.trustload.pki.TimestampClient> TSAS = new ConcurrentHashMap<>();

    /** One RFC 3161 client per TSA URL and timeouts, shared by every thread (it is thread-safe). */
    static org.trustload.pki.TimestampClient tsa(String url, String connectTimeout, String responseTimeout,
            int defaultResponseMs) throws PkiException {
        if (url == null || url.isBlank()) {
            throw new PkiException(PkiException.CONFIG_ERROR, "TSA URL is empty");
        }
        int ct = parseInt("connectTimeout", connectTimeout, 5000);
        int rt = parseInt("responseTimeout", responseTimeout, defaultResponseMs);
        try {
            return TSAS.computeIfAbsent(url.trim() + "|" + ct + "|" + rt, k -> new org.trustload.pki.TimestampClient(
                    java.net.URI.create(url.trim()), java.time.Duration.ofMillis(ct), java.time.Duration.ofMillis(rt)));
        } catch (IllegalArgumentException ex) {
            throw new PkiException(PkiException.CONFIG_ERROR, "bad TSA URL '" + url + "'");
        }
    }

    static String hex(byte[] b, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, max); i++) {
            sb.append(String.format("%02x", b[i]));
        }
        return sb.toString();
    }
}
