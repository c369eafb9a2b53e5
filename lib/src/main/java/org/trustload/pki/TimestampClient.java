package org.trustload.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import org.trustload.common.BoundedBody;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.operator.DefaultDigestAlgorithmIdentifierFinder;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;
import org.bouncycastle.tsp.TimeStampToken;

/**
 * An RFC 3161 client over HTTP: POSTs a {@code TimeStampReq} ({@code application/timestamp-query},
 * with a 64-bit nonce and certReq=true) and checks the answer before returning the token: HTTP
 * 200, a parseable {@code TimeStampResp}, status granted, and an imprint, nonce and policy matching
 * the request. Does not verify the token's signature or chain (that is the validator's job, and
 * would add its CPU cost to every timestamp of a load test).
 *
 * <p>Both timeouts are always in force: {@code connectTimeout} for the TCP connection, {@code
 * responseTimeout} for the whole answer after that (headers and body: a TSA that drips its body
 * still times out). Answers larger than {@value #MAX_RESPONSE_BYTES} bytes are refused.
 *
 * <p>Thread-safe; share one instance per TSA URL (it owns one {@link HttpClient} and its
 * connection pool).
 */
public final class TimestampClient implements TimestampSource {

    /** A real TimeStampResp is a few KiB; anything this large is not one. */
    public static final int MAX_RESPONSE_BYTES = 1 << 20;

    private final URI url;
    private final Duration connectTimeout;
    private final Duration responseTimeout;
    private final ASN1ObjectIdentifier policy;
    private final HttpClient http;
    private final SecureRandom random = new SecureRandom();

    /** A client that asks for no particular policy. */
    public TimestampClient(URI url, Duration connectTimeout, Duration responseTimeout) {
        this(url, connectTimeout, responseTimeout, null);
    }

    /**
     * @param policyOid the TSA policy to request, or null for the TSA's default
     */
    public TimestampClient(URI url, Duration connectTimeout, Duration responseTimeout, String policyOid) {
        this(null, url, connectTimeout, responseTimeout, policyOid);
    }

    /**
     * A client over a shared HTTP client (its owner's to close, e.g. a signature-server config's);
     * null builds one of its own.
     */
    public TimestampClient(HttpClient shared, URI url, Duration connectTimeout, Duration responseTimeout,
            String policyOid) {
        this.url = Objects.requireNonNull(url, "url");
        if (!"http".equalsIgnoreCase(url.getScheme()) && !"https".equalsIgnoreCase(url.getScheme())) {
            throw new IllegalArgumentException("TSA URL must be http or https: " + url);
        }
        this.connectTimeout = positive(connectTimeout, "connect timeout");
        this.responseTimeout = positive(responseTimeout, "response timeout");
        this.policy = policyOid == null || policyOid.isBlank() ? null : new ASN1ObjectIdentifier(policyOid.trim());
        // HTTP/1.1 explicitly: the default would try an h2c upgrade, which some TSAs mishandle
        this.http = shared != null ? shared : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    private static Duration positive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive");
        }
        return d;
    }

    public URI url() {
        return url;
    }

    @Override
    public byte[] timestamp(byte[] imprint, String digestAlgorithm) throws PkiException {
        try {
            return fetch(imprint, digestAlgorithm).encodedToken();
        } catch (IOException e) {
            throw new PkiException(PkiException.TSA_ERROR, "TSA answer is not a timestamp response", e.toString(), e);
        }
    }

    /** A checked answer: its bytes and its token. */
    private record Answer(byte[] der, TimeStampToken token) {
        /**
         * The token as the TSA encoded it, cut from the answer; encoded again only when the answer is not
         * definite-length. (Encoding the parsed token again was 16% of {@link #request}'s CPU in JFR.)
         */
        byte[] encodedToken() throws IOException {
            byte[] b = tokenBytes(der);
            return b != null ? b : token.getEncoded();
        }
    }

    private Answer fetch(byte[] imprint, String digestAlgorithm) throws PkiException {
        AlgorithmIdentifier alg = digestAlgorithm(digestAlgorithm);
        TimeStampRequestGenerator g = new TimeStampRequestGenerator();
        g.setCertReq(true);
        if (policy != null) {
            g.setReqPolicy(policy);
        }
        TimeStampRequest request = g.generate(alg, imprint, new BigInteger(64, random));
        byte[] body;
        try {
            body = request.getEncoded();
        } catch (IOException e) {
            throw new PkiException(PkiException.CONFIG_ERROR, "cannot encode timestamp request", e.toString(), e);
        }
        byte[] answer = post(body);
        TimeStampResponse response;
        try {
            response = new TimeStampResponse(answer);
        } catch (TSPException | IOException | RuntimeException e) {
            throw new PkiException(PkiException.TSA_ERROR, "TSA answer is not a timestamp response",
                    url + ": " + answer.length + " bytes: " + e, e);
        }
        int status = response.getStatus();
        if (status != 0 && status != 1) { // granted, grantedWithMods
            throw new PkiException(PkiException.TSA_ERROR, "TSA refused the request (status " + status + ")",
                    url + ": " + response.getStatusString() + ", failInfo "
                            + (response.getFailInfo() == null ? "none" : response.getFailInfo().intValue()), null);
        }
        try {
            response.validate(request);
        } catch (TSPException | RuntimeException e) {
            throw new PkiException(PkiException.TSA_ERROR, "TSA answer does not match the request", url + ": " + e, e);
        }
        return new Answer(answer, response.getTimeStampToken());
    }

    /**
     * The bytes of the token in a {@code TimeStampResp} (SEQUENCE { status PKIStatusInfo, timeStampToken
     * ContentInfo }) when every length on the way is definite and the token ends the answer; else null.
     */
    public static byte[] tokenBytes(byte[] resp) {
        int[] outer = header(resp, 0);
        if (outer == null || resp[0] != 0x30 || outer[0] + outer[1] != resp.length) {
            return null;
        }
        int[] status = header(resp, outer[0]);
        if (status == null || resp[outer[0]] != 0x30) {
            return null;
        }
        int at = status[0] + status[1];
        int[] token = header(resp, at);
        if (token == null || resp[at] != 0x30 || token[0] + token[1] != resp.length) {
            return null;
        }
        return java.util.Arrays.copyOfRange(resp, at, resp.length);
    }

    /** {content offset, content length} of the definite-length DER element at {@code i}, or null. */
    private static int[] header(byte[] b, int i) {
        if (i < 0 || i + 2 > b.length) {
            return null;
        }
        int len = b[i + 1] & 0xff;
        int p = i + 2;
        if (len == 0x80) {
            return null; // indefinite length
        }
        if (len > 0x80) {
            int n = len & 0x7f;
            if (n > 3 || p + n > b.length) {
                return null;
            }
            len = 0;
            for (int k = 0; k < n; k++) {
                len = (len << 8) | (b[p++] & 0xff);
            }
        }
        return p + (long) len > b.length ? null : new int[] {p, len};
    }

    /** A granted token and what a report shows of it. */
    public record Granted(byte[] token, java.time.Instant time, BigInteger serial, String policy, String tsa) {
        /** One line: time and serial. */
        public String summary() {
            return "timestamp " + time + " serial " + serial;
        }
    }

    /** Requests a token for {@code imprint} and reads its time, serial, policy and TSA name. */
    public Granted request(byte[] imprint, String digestAlgorithm) throws PkiException {
        Answer a = fetch(imprint, digestAlgorithm);
        TimeStampToken t = a.token();
        try {
            return new Granted(a.encodedToken(), t.getTimeStampInfo().getGenTime().toInstant(),
                    t.getTimeStampInfo().getSerialNumber(), String.valueOf(t.getTimeStampInfo().getPolicy()),
                    String.valueOf(t.getSID().getIssuer()));
        } catch (IOException | RuntimeException e) {
            throw new PkiException(PkiException.TSA_ERROR, "TSA token cannot be parsed", url + ": " + e, e);
        }
    }

    /**
     * Reads a token a signature API returned (DER {@code TimeStampToken}) and checks that it stamps
     * {@code imprint} made with {@code digestAlgorithm}.
     *
     * @throws PkiException {@link PkiException#BAD_RESPONSE} when it is not a token or stamps something else
     */
    public static Granted granted(byte[] token, byte[] imprint, String digestAlgorithm, String where)
            throws PkiException {
        TimeStampToken t;
        try {
            t = new TimeStampToken(new org.bouncycastle.cms.CMSSignedData(token));
        } catch (TSPException | IOException | org.bouncycastle.cms.CMSException | RuntimeException e) {
            throw new PkiException(PkiException.BAD_RESPONSE, "timestamp token cannot be parsed", where + ": " + e, e);
        }
        org.bouncycastle.tsp.TimeStampTokenInfo info = t.getTimeStampInfo();
        if (!java.util.Arrays.equals(info.getMessageImprintDigest(), imprint)
                || !info.getMessageImprintAlgOID().equals(digestAlgorithm(digestAlgorithm).getAlgorithm())) {
            throw new PkiException(PkiException.BAD_RESPONSE, "timestamp token does not match the request",
                    where + ": the token stamps another imprint or algorithm (" + info.getMessageImprintAlgOID() + ")",
                    null);
        }
        return new Granted(token, info.getGenTime().toInstant(), info.getSerialNumber(),
                String.valueOf(info.getPolicy()),
                String.valueOf(t.getSID().getIssuer()));
    }

    /** The digest algorithm identifier for a JCA name ({@code SHA-256}, {@code SM3}, …). */
    public static AlgorithmIdentifier digestAlgorithm(String name) throws PkiException {
        AlgorithmIdentifier alg;
        try {
            alg = new DefaultDigestAlgorithmIdentifierFinder().find(name);
        } catch (RuntimeException e) {
            alg = null;
        }
        if (alg == null) {
            throw new PkiException(PkiException.CONFIG_ERROR, "unknown digest algorithm " + name);
        }
        return alg;
    }

    private byte[] post(byte[] body) throws PkiException {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(responseTimeout)
                .header("Content-Type", "application/timestamp-query")
                .header("Accept", "application/timestamp-reply")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<byte[]> response;
        try {
            // the request timeout stops at the headers; the body's deadline covers the whole answer
            response = http.send(request, BoundedBody.handler(connectTimeout.plus(responseTimeout),
                    MAX_RESPONSE_BYTES));
        } catch (IOException e) {
            throw failure(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PkiException(PkiException.TSA_ERROR, "TSA request interrupted", url.toString(), e);
        }
        if (response.statusCode() != 200) {
            throw new PkiException(PkiException.TSA_ERROR, "TSA answered HTTP " + response.statusCode(),
                    url + ": HTTP " + response.statusCode(), null);
        }
        return response.body();
    }

    private PkiException failure(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof HttpConnectTimeoutException) {
                return new PkiException(PkiException.TSA_ERROR, "TSA timed out", url + ": connect: " + t, t);
            }
            if (t instanceof HttpTimeoutException) {
                return new PkiException(PkiException.TSA_ERROR, "TSA timed out", url + ": " + t.getMessage(), t);
            }
            if (t instanceof ConnectException) {
                return new PkiException(PkiException.TSA_ERROR, "TSA unreachable", url + ": " + t, t);
            }
            if (t instanceof BoundedBody.TooLarge) {
                return new PkiException(PkiException.TSA_ERROR, "TSA answer is not a timestamp response",
                        url + ": answer larger than " + MAX_RESPONSE_BYTES + " bytes", t);
            }
        }
        return new PkiException(PkiException.TSA_ERROR, "TSA connection failed", url + ": " + cause, cause);
    }
}
