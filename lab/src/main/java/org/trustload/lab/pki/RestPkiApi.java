package org.trustload.lab.pki;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TimeStampToken;
import org.trustload.lab.LabHttp;
import org.trustload.pki.PkiException;
import org.trustload.pki.TimestampSource;

/**
 * The Rest PKI routes of the pki service: Lacuna Rest PKI's classic API (under {@code /Api/}, an access token as
 * {@code Authorization: Bearer}) and Rest PKI Core's (under {@code /api/}, {@code X-Api-Key}) on one base URL,
 * as a Rest PKI Core server serves both; paths case-insensitive, as on Lacuna's ASP.NET servers. Fields, status
 * codes and error bodies follow Lacuna's API description and clients: docs/lab.md, "Rest PKI API".
 */
final class RestPkiApi {
    /** Largest request body accepted (base64 of a ~48 MiB document). */
    static final int MAX_BODY = 64 * 1024 * 1024;
    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    /** How a route authenticates its caller. */
    private enum Credential {
        /** Classic: {@code Authorization: Bearer <access token>}. */
        BEARER,
        /** Core: {@code X-Api-Key: <key>}. */
        API_KEY,
        /** Core timestamps: {@code X-Api-Key}, or {@code Authorization: Bearer|ApiKey <key>}. */
        API_KEY_OR_AUTHORIZATION
    }

    private final byte[] credential;
    private final SignatureFlow flow;
    private final CertificateLogin login;
    private final CertificateModels models;
    private final TimestampSource tsa;

    RestPkiApi(String credential, SignatureFlow flow, CertificateLogin login, CertificateModels models,
            TimestampSource tsa) {
        this.credential = credential.getBytes(StandardCharsets.UTF_8);
        this.flow = flow;
        this.login = login;
        this.models = models;
        this.tsa = tsa;
    }

    /** A Rest PKI answer, with the content type of Lacuna's ASP.NET servers. */
    private static LabHttp.Reply restPki(int status, Object value) {
        return new LabHttp.Reply(status, "application/json; charset=utf-8", LabHttp.json(value));
    }

    /** Whether {@code path} is in the Rest PKI namespace ({@code /api/...} in any case). */
    static boolean owns(String path) {
        return path.length() > 5 && path.regionMatches(true, 0, "/api/", 0, 5);
    }

    /** Answers one request; every failure is one of Lacuna's error answers. */
    LabHttp.Reply handle(HttpExchange ex) {
        try {
            return route(ex);
        } catch (RestPkiError e) {
            return restPki(e.status(), e.body());
        } catch (Json.Invalid e) {
            return restPki(400, RestPkiError.badRequest(e.getMessage()).body());
        } catch (IOException | RuntimeException e) {
            String code = "lab-" + Long.toHexString(System.nanoTime());
            System.err.println("trustload-lab: pki " + ex.getRequestMethod() + " " + ex.getRequestURI().getPath()
                    + " (" + code + "): " + e);
            return restPki(500, RestPkiError.internal(code, e).body());
        }
    }

    private LabHttp.Reply route(HttpExchange ex) throws RestPkiError, Json.Invalid, IOException {
        String path = ex.getRequestURI().getPath();
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        // "", "api", then the route's segments; tokens keep their case
        String[] s = path.split("/", -1);
        int n = s.length - 2;
        String a = n >= 1 ? s[2].toLowerCase(Locale.ROOT) : "";
        String b = n >= 2 ? s[3].toLowerCase(Locale.ROOT) : "";
        String c = n >= 3 ? s[4].toLowerCase(Locale.ROOT) : "";
        switch (a) {
            case "cadessignatures", "padessignatures" -> {
                SignaturePolicy.Family family = a.startsWith("cades") ? SignaturePolicy.Family.CADES
                        : SignaturePolicy.Family.PADES;
                if (n == 1) {
                    allow(ex, "POST", Credential.BEARER);
                    return start(family, body(ex), false);
                }
                if (n == 3 && c.equals("signedbytes")) {
                    allow(ex, "POST", Credential.BEARER);
                    return complete(family, s[3], body(ex));
                }
            }
            case "cades-signatures", "pades-signatures" -> {
                SignaturePolicy.Family family = a.startsWith("cades") ? SignaturePolicy.Family.CADES
                        : SignaturePolicy.Family.PADES;
                if (n == 1) {
                    allow(ex, "POST", Credential.API_KEY);
                    return start(family, body(ex), true);
                }
                if (n == 2 && !b.equals("open")) {
                    allow(ex, "POST", Credential.API_KEY);
                    return complete(family, s[3], body(ex));
                }
            }
            case "authentication" -> {
                if (n == 1) {
                    allow(ex, "GET, POST", Credential.BEARER);
                    if (ex.getRequestMethod().equals("GET")) {
                        return restPki(200, login.nonce());
                    }
                    return restPki(200, login.completeClassic(Json.parse(body(ex))));
                }
            }
            case "v2" -> {
                if (b.equals("authentication") && n == 2) {
                    allow(ex, "POST", Credential.API_KEY);
                    return restPki(200, login.prepare(Json.parseOptional(body(ex))));
                }
                if (b.equals("authentication") && n == 3 && c.equals("completion")) {
                    allow(ex, "POST", Credential.API_KEY);
                    return restPki(200, login.completeCore(Json.parse(body(ex))));
                }
            }
            case "timestampplans" -> {
                if (n == 3 && c.equals("issue")) {
                    allow(ex, "POST", Credential.BEARER);
                    return restPki(200, timestamp(Json.parse(body(ex))));
                }
            }
            case "tsp" -> {
                if (n == 2) {
                    allow(ex, "POST", Credential.API_KEY_OR_AUTHORIZATION);
                    return restPki(200, timestamp(Json.parse(body(ex))));
                }
            }
            default -> {
                // not a route of the lab
            }
        }
        throw RestPkiError.notFound("No Rest PKI route at " + ex.getRequestMethod() + " " + ex.getRequestURI().getPath()
                + " in the lab (it serves CAdES and PAdES signatures, authentication and timestamps; see docs/lab.md)");
    }

    /* ---------------------------------------------------------------- signatures */

    private LabHttp.Reply start(SignaturePolicy.Family family, byte[] body, boolean core)
            throws RestPkiError, Json.Invalid {
        Json req = Json.parse(body);
        SignaturePolicy policy = policy(req.uuid("signaturePolicyId"), family);
        req.uuid("securityContextId"); // the lab trusts its own CAs whatever the security context
        byte[] document;
        boolean encapsulate = true;
        if (family == SignaturePolicy.Family.CADES) {
            if (req.has("cmsToCoSign")) {
                throw RestPkiError.api(RestPkiError.INVALID_REQUEST,
                        "Co-signing (cmsToCoSign) is not offered by the lab");
            }
            document = req.base64("contentToSign");
            if (document == null) {
                throw RestPkiError.api(RestPkiError.INVALID_REQUEST, req.has("dataHashes")
                        ? "Signing from data hashes is not offered by the lab: send contentToSign"
                        : "contentToSign is required");
            }
            encapsulate = req.bool("encapsulateContent", true);
        } else {
            document = pdf(req, core);
        }
        X509Certificate cert = certificate(req.base64("certificate"));
        SignatureFlow.Started st = flow.start(policy, document, cert, encapsulate, req.text("reason"),
                req.text("callbackArgument"), req.bool("ignoreRevocationStatusUnknown", false));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("token", st.token());
        out.put("certificate", models.of(st.path()));
        out.put("toSignData", st.toSignData());
        out.put("toSignHash", st.toSignHash());
        out.put("digestAlgorithmOid", st.digestAlgorithmOid());
        return restPki(201, out);
    }

    /** Classic: {@code pdfToSign} is the base64 PDF; Core: a {@code FileModel} with {@code content}. */
    private static byte[] pdf(Json req, boolean core) throws RestPkiError, Json.Invalid {
        byte[] pdf;
        if (req.isObject("pdfToSign")) {
            Json file = req.object("pdfToSign");
            if (file.has("blobToken") || file.has("url")) {
                throw RestPkiError.api(RestPkiError.INVALID_REQUEST,
                        "The lab stores no documents: send the PDF as pdfToSign.content (not a blobToken or url)");
            }
            pdf = file.base64("content");
        } else {
            pdf = req.base64("pdfToSign");
        }
        if (pdf == null) {
            throw RestPkiError.badRequest("pdfToSign is required" + (core ? " (a FileModel with content)" : ""));
        }
        return pdf;
    }

    private LabHttp.Reply complete(SignaturePolicy.Family family, String token, byte[] body)
            throws RestPkiError, Json.Invalid {
        Json req = Json.parse(body);
        SignatureFlow.Completed done = flow.complete(token, family, req.base64("signature"));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(family == SignaturePolicy.Family.CADES ? "cms" : "signedPdf", done.signed());
        out.put("callbackArgument", done.callbackArgument());
        out.put("certificate", models.of(done.path()));
        return restPki(200, out);
    }

    private static SignaturePolicy policy(UUID id, SignaturePolicy.Family family) throws RestPkiError {
        if (id == null) {
            throw RestPkiError.api(RestPkiError.SIGNATURE_POLICY_REQUIRED, "signaturePolicyId is required");
        }
        SignaturePolicy p = SignaturePolicy.of(id);
        if (p == null) {
            throw RestPkiError.api(RestPkiError.ENTITY_NOT_FOUND, "Signature policy " + id + " not found");
        }
        if (p.family() != family || !p.offered()) {
            throw RestPkiError.api(RestPkiError.ENTITY_UNUSABLE, "Signature policy " + id + " (" + p.lacunaName() + ") "
                    + (p.offered() ? "is not a " + family.label() + " policy" : "is not offered by the lab"));
        }
        return p;
    }

    private static X509Certificate certificate(byte[] der) throws RestPkiError {
        if (der == null) {
            throw RestPkiError.api(RestPkiError.INVALID_REQUEST,
                    "The signer's certificate is required (the lab does not serve the Web PKI flow)");
        }
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new java.io.ByteArrayInputStream(der));
        } catch (CertificateException | RuntimeException e) {
            throw RestPkiError.api(RestPkiError.PK_CERTIFICATE_MALFORMED,
                    "The certificate is not a DER X.509 certificate", e);
        }
    }

    /* ---------------------------------------------------------------- timestamps */

    /** {@code DigestAlgorithmAndValueModel} in, {@code TimestampIssueResponse} out. */
    private Map<String, Object> timestamp(Json req) throws RestPkiError, Json.Invalid {
        String algorithm = req.text("algorithm");
        String jca = algorithm == null ? null : switch (algorithm.toUpperCase(Locale.ROOT)) {
            case "SHA1" -> "SHA-1";
            case "SHA256" -> "SHA-256";
            case "SHA384" -> "SHA-384";
            case "SHA512" -> "SHA-512";
            default -> null;
        };
        if (jca == null) {
            throw RestPkiError.api(RestPkiError.UNSUPPORTED_DIGEST_ALGORITHM, "Digest algorithm " + algorithm
                    + " is not supported (SHA1, SHA256, SHA384, SHA512)");
        }
        byte[] value = req.base64("value");
        String hex = req.text("hexValue");
        if (value == null && hex != null) {
            try {
                value = HexFormat.of().parseHex(hex.strip().toLowerCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new Json.Invalid("field \"hexValue\" is not hexadecimal");
            }
        }
        int length;
        try {
            length = MessageDigest.getInstance(jca).getDigestLength();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(jca + " is missing from the JDK", e);
        }
        if (value == null || value.length != length) {
            throw RestPkiError.api(RestPkiError.INVALID_REQUEST,
                    "value (or hexValue) must be a " + algorithm + " digest of "
                    + length + " bytes");
        }
        byte[] token;
        TimeStampToken parsed;
        try {
            token = tsa.timestamp(value, jca);
            parsed = new TimeStampToken(new CMSSignedData(token));
        } catch (PkiException | CMSException | TSPException | IOException e) {
            throw RestPkiError.api(RestPkiError.TIMESTAMPING_UNAVAILABLE, "The timestamp could not be issued", e);
        }
        Map<String, Object> imprint = new LinkedHashMap<>();
        imprint.put("algorithm", algorithm.toUpperCase(Locale.ROOT));
        imprint.put("value", value);
        imprint.put("hexValue", HexFormat.of().formatHex(value));
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("genTime", DATE.format(parsed.getTimeStampInfo().getGenTime().toInstant().atOffset(ZoneOffset.UTC)));
        info.put("serialNumber", parsed.getTimeStampInfo().getSerialNumber().toString());
        info.put("messageImprint", imprint);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("encodedValue", token);
        out.put("info", info);
        return out;
    }

    /* ---------------------------------------------------------------- HTTP */

    /** 405 for another method, then 401 without the right credential. */
    private void allow(HttpExchange ex, String methods, Credential kind) throws RestPkiError {
        String m = ex.getRequestMethod();
        if (!(", " + methods + ",").contains(", " + m + ",")) {
            ex.getResponseHeaders().set("Allow", methods);
            throw RestPkiError.methodNotAllowed("The requested resource does not support http method '" + m + "'");
        }
        String authorization = ex.getRequestHeaders().getFirst("Authorization");
        String apiKey = ex.getRequestHeaders().getFirst("X-Api-Key");
        boolean ok = switch (kind) {
            case BEARER -> matches(after(authorization, "Bearer "));
            case API_KEY -> matches(apiKey);
            case API_KEY_OR_AUTHORIZATION -> matches(apiKey) || matches(after(authorization, "Bearer "))
                    || matches(after(authorization, "ApiKey "));
        };
        if (!ok) {
            if (kind == Credential.BEARER) {
                ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            }
            throw RestPkiError.unauthorized(kind == Credential.BEARER
                    ? "Authorization has been denied for this request (send the access token as Authorization: Bearer)"
                    : "The API key is missing or invalid (send it as X-Api-Key)");
        }
    }

    private static String after(String header, String scheme) {
        return header != null && header.regionMatches(true, 0, scheme, 0, scheme.length())
                ? header.substring(scheme.length()).strip() : null;
    }

    private boolean matches(String presented) {
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), credential);
    }

    private static byte[] body(HttpExchange ex) throws IOException, RestPkiError {
        byte[] b = ex.getRequestBody().readNBytes(MAX_BODY + 1);
        if (b.length > MAX_BODY) {
            throw RestPkiError.tooLarge("The request body exceeds " + MAX_BODY + " bytes");
        }
        return b;
    }
}
