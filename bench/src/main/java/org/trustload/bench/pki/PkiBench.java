package org.trustload.bench.pki;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Base64;
import java.util.Calendar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.trustload.bench.JMeterRun;
import org.trustload.bench.ProcCpu;
import org.trustload.bench.ThreadCpuTrace;
import org.trustload.common.ChildProcess;
import org.trustload.harness.DssFixture;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.jmx.PlanTree;

import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.SetupThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jorphan.collections.HashTree;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.PDSignature;
import org.apache.pdfbox.pdmodel.interactive.digitalsignature.SignatureOptions;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.bouncycastle.tsp.TSPAlgorithms;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;
import org.trustload.pki.SignatureServer;
import org.trustload.pki.api.SignRequest;
import org.trustload.pki.TimestampClient;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.trustload.pki.CadesSigner;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.PadesSigner;
import org.trustload.labkit.pki.SamplePdf;
import org.trustload.pki.SignOptions;
import org.trustload.labkit.pki.TestPki;

/**
 * {@code ./trustload bench pki}: signatures per second and client CPU per signature as ratios within one run
 * (our samplers in JMeter, our engines without JMeter, raw BouncyCastle/PDFBox and JCA loops, openssl,
 * SoftHSM2; timestamps and server APIs against the lab and EU DSS). Cells interleaved and rotated, medians over
 * rounds, every loop and child bounded. Cells and options: docs/bench.md, "PKI (CAdES, PAdES)".
 */
public final class PkiBench {
    static final String PIN = "4321";
    static final Path SOFTHSM_LIB = Path.of("/usr/lib/softhsm/libsofthsm2.so");

    private final Map<String, String> opts = new LinkedHashMap<>();
    private Path out;
    private Path root;
    private Path jmeterHome;
    private byte[] content;
    private Path contentFile;
    private TestPki ecPki;
    private TestPki rsaPki;
    private KeyMaterial ecKey;
    private KeyMaterial rsaKey;
    private KeyMaterial hsmKey;
    private Path p11Config;
    private String hsmLabel = "ec-user";
    /** cell name → threads → measured ops/s of each round. */
    private final Map<String, Map<Integer, List<Double>>> results = new LinkedHashMap<>();
    /** cell name → threads → client CPU ms per operation of each round (process CPU over the measured phase). */
    private final Map<String, Map<Integer, List<Double>>> cpu = new LinkedHashMap<>();
    /** cell name → threads → CPU ms per operation of the signing threads only, each round. */
    private final Map<String, Map<Integer, List<Double>>> workerCpu = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    /** cell name → threads → the lab's CPU ms per operation, each round (server cells only). */
    private final Map<String, Map<Integer, List<Double>>> serverCpu = new LinkedHashMap<>();
    private final List<String> loads = new ArrayList<>();
    /** cell name → threads → CPU ms per operation by thread group, each round. */
    private final Map<String, Map<Integer, List<Map<String, Double>>>> threadCpu = new LinkedHashMap<>();
    private boolean jfr;
    /** The lab (pki service) for the login and timestamp cells, or null. */
    private Lab lab;
    /** EU DSS beside the lab (its CAs, CRLs, TSA), for the API cells, or null. */
    private DssFixture dss;
    /** The servers of the API cells, for the ratios. */
    private final List<Target> apiTargets = new ArrayList<>();
    private long labPid = -1;
    private Properties labProps;
    /** A lab user that is neither revoked nor expired. */
    private KeyMaterial labKey;

    public static void main(String[] args) throws Exception {
        PkiBench b = new PkiBench();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected key=value, got " + a);
            }
            b.opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
        b.run();
        // SunPKCS11 and JMeter's children may leave non-daemon threads
        System.exit(0);
    }

    private String opt(String k, String def) {
        return opts.getOrDefault(k, def);
    }

    private int intOpt(String k, int def) {
        return Integer.parseInt(opt(k, Integer.toString(def)));
    }

    private boolean boolOpt(String k, boolean def) {
        return Boolean.parseBoolean(opt(k, Boolean.toString(def)));
    }

    // ------------------------------------------------------------------ setup

    private void run() throws Exception {
        root = Path.of(System.getProperty("trustload.root", ".")).toAbsolutePath().normalize();
        out = Path.of(opt("out", root.resolve("bench/target/pki-bench/manual").toString()));
        Files.createDirectories(out);
        jmeterHome = root.resolve("dist/target/jmeter");
        List<Integer> threads = new ArrayList<>();
        for (String t : opt("threads", "1,2").split(",")) {
            threads.add(Integer.parseInt(t.trim()));
        }
        int rounds = intOpt("rounds", 3);
        jfr = boolOpt("jfr", true);
        jdk.jfr.Recording benchJfr = null;
        if (jfr) {
            // one recording for the in-JVM loops (each JMeter cell has its own, beside its results)
            Files.createDirectories(out.resolve("jfr"));
            benchJfr = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            benchJfr.setDestination(out.resolve("jfr").resolve("bench-jvm-loops.jfr"));
            benchJfr.start();
        }

        long t0 = System.nanoTime();
        ecPki = TestPki.generate(new TestPki.Spec().withSeed(42).withCas(1).withUsers(1).withExpiredCount(0),
                out.resolve("pki-ec"));
        rsaPki = TestPki.generate(new TestPki.Spec().withSeed(43).withCas(1).withUsers(1).withExpiredCount(0)
                .withKeyType(TestPki.KeyType.RSA2048), out.resolve("pki-rsa"));
        String alias = ecPki.userAliases().get(0);
        ecKey = ecPki.users(List.of(alias)).load().get(0);
        rsaKey = rsaPki.users(List.of(rsaPki.userAliases().get(0))).load().get(0);
        // document=PATH signs a given file (e.g. the lab's sample.pdf); SamplePdf gives the lab's document
        // (140,576 bytes with PDFBox 3.0.8); the size is printed
        content = opts.containsKey("document") ? Files.readAllBytes(Path.of(opt("document", "")))
                : SamplePdf.generate(SamplePdf.SCENARIO_BYTES);
        contentFile = out.resolve("document-137k.pdf");
        Files.write(contentFile, content);
        System.out.printf(Locale.ROOT, "setup: test PKI (P-256 + RSA-2048 user) and %d-byte PDF in %.1f s%n",
                content.length, (System.nanoTime() - t0) / 1e9);
        if (boolOpt("hsm", true)) {
            setUpSoftHsm();
        }
        crossCheck();
        if (boolOpt("server", true)) {
            startLab();
            if (boolOpt("dss", true)) {
                long d0 = System.nanoTime();
                dss = DssFixture.start(Layout.current(), out.resolve("lab.properties"), out.resolve("dss"), 0,
                        Duration.ofMinutes(3));
                System.out.printf(Locale.ROOT, "setup: EU DSS 6.4 at %s, pid %d, ready in %.1f s%n", dss.url(),
                        dss.handle().pid(), (System.nanoTime() - d0) / 1e9);
            }
        }
        try {
            measure(threads, rounds, benchJfr);
        } finally {
            if (dss != null) {
                dss.close();
            }
            if (lab != null) {
                lab.close();
            }
        }
    }

    private void measure(List<Integer> threads, int rounds, jdk.jfr.Recording benchJfr) throws Exception {
        List<Cell> cells = cells();
        // JIT warm-up of this JVM's loops once before round 1 (not recorded): otherwise round 1 of the
        // in-JVM cells pays for compilation that each JMeter child pays in its own setUp warm-up group
        long w0 = System.nanoTime();
        for (Cell c : cells) {
            if (c instanceof LoopCell) {
                try {
                    c.run(1, -1);
                } catch (Exception e) {
                    notes.add("warm-up " + c.name + ": " + e);
                }
            }
        }
        System.out.printf(Locale.ROOT, "warm-up of the in-JVM loops: %.1f s%n", (System.nanoTime() - w0) / 1e9);
        for (int r = 0; r < rounds; r++) {
            for (int t : threads) {
                int n = cells.size();
                for (int i = 0; i < n; i++) {
                    Cell c = cells.get((i + r) % n);
                    double v;
                    c.cpuMsPerOp = Double.NaN;
                    c.workerMsPerOp = Double.NaN;
                    c.serverMsPerOp = Double.NaN;
                    c.threadMsPerOp = Map.of();
                    try {
                        v = c.run(t, r);
                    } catch (Exception e) {
                        notes.add("round " + (r + 1) + " " + c.name + " t" + t + ": " + e);
                        v = Double.NaN;
                    }
                    results.computeIfAbsent(c.name, k -> new TreeMap<>()).computeIfAbsent(t, k -> new ArrayList<>())
                            .add(v);
                    cpu.computeIfAbsent(c.name, k -> new TreeMap<>()).computeIfAbsent(t, k -> new ArrayList<>())
                            .add(c.cpuMsPerOp);
                    workerCpu.computeIfAbsent(c.name, k -> new TreeMap<>()).computeIfAbsent(t, k -> new ArrayList<>())
                            .add(c.workerMsPerOp);
                    threadCpu.computeIfAbsent(c.name, k -> new TreeMap<>()).computeIfAbsent(t, k -> new ArrayList<>())
                            .add(c.threadMsPerOp);
                    if (c.server) {
                        serverCpu.computeIfAbsent(c.name, k -> new TreeMap<>())
                                .computeIfAbsent(t, k -> new ArrayList<>())
                                .add(c.serverMsPerOp);
                    }
                    System.out.printf(Locale.ROOT,
                            "round %d t%d %-44s %10.1f /s  %7.3f CPU ms/op (signing threads %.3f%s)  (load %s)%n",
                            r + 1, t, c.name, v, c.cpuMsPerOp, c.workerMsPerOp,
                            c.server ? String.format(Locale.ROOT, "; lab %.3f", c.serverMsPerOp) : "", load());
                }
            }
            loads.add(load());
        }
        if (benchJfr != null) {
            benchJfr.stop();
            benchJfr.close();
        }
        print(threads, rounds);
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "?";
        }
    }

    /**
     * Creates a token in the directory SOFTHSM2_CONF points to, imports the P-256 user (key with
     * softhsm2-util, certificate with pkcs11-tool) and the CA certificate, and loads the key through
     * {@link KeySource#pkcs11}.
     */
    private void setUpSoftHsm() throws Exception {
        String conf = System.getenv("SOFTHSM2_CONF");
        if (conf == null || !Files.isRegularFile(SOFTHSM_LIB)) {
            notes.add("SoftHSM cells skipped: SOFTHSM2_CONF not set or " + SOFTHSM_LIB + " missing");
            return;
        }
        Path dir = Files.createDirectories(out.resolve("softhsm"));
        String init = exec(60, "softhsm2-util", "--init-token", "--free", "--label", "trustload-bench", "--pin", PIN,
                "--so-pin", "87654321");
        Matcher m = Pattern.compile("reassigned to slot (\\d+)").matcher(init);
        if (!m.find()) {
            throw new IllegalStateException("softhsm2-util --init-token: " + init);
        }
        String slot = m.group(1);
        Path pem = dir.resolve("ec-user.key.pem");
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(new JcaPKCS8Generator(ecKey.privateKey(), null).generate());
        }
        Files.writeString(pem, w.toString());
        exec(60, "softhsm2-util", "--import", pem.toString(), "--token", "trustload-bench", "--label", hsmLabel,
                "--id", "01", "--pin", PIN);
        Files.delete(pem);
        writeCert(dir, ecKey.certificate(), hsmLabel, "01");
        writeCert(dir, ecPki.caCertificates().get(0), "ca-ec", "a1");
        p11Config = dir.resolve("pkcs11.cfg");
        Files.writeString(p11Config, "name = TrustLoadBench\nlibrary = " + SOFTHSM_LIB + "\nslot = " + slot + "\n");
        hsmKey = KeySource.pkcs11(p11Config, PIN.toCharArray(), List.of(hsmLabel)).load().get(0);
        System.out.println("setup: SoftHSM2 token slot " + slot + ", key " + hsmKey.alias() + " provider "
                + (hsmKey.provider() == null ? "?" : hsmKey.provider().getName()));
    }

    private void writeCert(Path dir, X509Certificate cert, String label, String id) throws Exception {
        Path der = dir.resolve(label + ".der");
        Files.write(der, cert.getEncoded());
        exec(60, "pkcs11-tool", "--module", SOFTHSM_LIB.toString(), "--token-label", "trustload-bench", "--login",
                "--pin", PIN, "--write-object", der.toString(), "--type", "cert", "--id", id, "--label", label);
    }

    private static String exec(int timeoutSeconds, String... cmd) throws Exception {
        ChildProcess.Finished f = ChildProcess.run(List.of(cmd), Duration.ofSeconds(timeoutSeconds));
        if (!f.ok()) {
            throw new IllegalStateException(String.join(" ", cmd)
                    + (f.status() < 0 ? ": timed out" : ": exit " + f.status())
                    + "\n" + f.output());
        }
        return f.output();
    }

    /** Each implementation's output once: both CMS verify with BC, and their sizes. */
    private void crossCheck() throws Exception {
        SignOptions o = SignOptions.builder().digest("SHA-256").attached(true).level(SignOptions.Level.B).build();
        byte[] ours = CadesSigner.sign(content, ecKey, o);
        byte[] raw = rawCms(ecKey, content);
        System.out.printf(Locale.ROOT, "check: CAdES (ours) %d bytes verifies=%s; raw BC CMS %d bytes verifies=%s%n",
                ours.length, verifies(ours), raw.length, verifies(raw));
        if (hsmKey != null) {
            byte[] h = CadesSigner.sign(content, hsmKey, o);
            System.out.printf(Locale.ROOT, "check: CAdES with the SoftHSM key %d bytes verifies=%s%n", h.length,
                    verifies(h));
        }
        if (boolOpt("pades", true)) {
            byte[] p = PadesSigner.sign(content, ecKey, o);
            byte[] rp = rawPades(ecKey, content);
            System.out.printf(Locale.ROOT, "check: PAdES (ours) %d bytes; raw PDFBox+BC %d bytes%n", p.length,
                    rp.length);
        }
        Signature s = Signature.getInstance("SHA256withECDSA");
        s.initSign(ecKey.privateKey());
        System.out.println("check: JCA default provider for SHA256withECDSA with the PKCS#12 key: "
                + s.getProvider().getName() + " (used by the sampler, our engine and the raw BC loop alike)");
    }

    private static boolean verifies(byte[] cms) {
        try {
            CMSSignedData sd = new CMSSignedData(cms);
            SignerInformation si = sd.getSignerInfos().getSigners().iterator().next();
            @SuppressWarnings("unchecked")
            var holder = (org.bouncycastle.cert.X509CertificateHolder) sd.getCertificates().getMatches(si.getSID())
                    .iterator().next();
            // the signature value only (with the certificate's public key): BC's certificate-holder form
            // also checks the certificate's validity at the signing time, which is not the point here
            return si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(new BouncyCastleProvider())
                    .build(new org.bouncycastle.cert.jcajce.JcaX509CertificateConverter().getCertificate(holder)
                            .getPublicKey()));
        } catch (Exception e) {
            return false;
        }
    }

    /** The lab's pki service on free loopback ports, for the login and timestamp cells. */
    private void startLab() throws Exception {
        Path props = out.resolve("lab.properties");
        lab = Lab.start(Layout.current(), "pki", props, out.resolve("lab.log"),
                List.of("--port-base", Integer.toString(Lab.freePortBase())), Duration.ofMinutes(2));
        labPid = lab.handle().pid();
        staticLabPid = labPid;
        labProps = new Properties();
        try (var in = Files.newBufferedReader(props)) {
            labProps.load(in);
        }
        Set<String> refused = new java.util.HashSet<>(List.of(labProps.getProperty("pki.aliases.revoked").split(",")));
        refused.addAll(List.of(labProps.getProperty("pki.aliases.expired").split(",")));
        List<KeyMaterial> users = KeySource.pkcs12(Path.of(labProps.getProperty("pki.keystore")),
                labProps.getProperty("pki.keystore.password").toCharArray(), List.of()).load();
        labKey = users.stream().filter(k -> !refused.contains(k.alias())).findFirst().orElseThrow();
        RawTimestamp rawTs = new RawTimestamp(URI.create(labProps.getProperty("pki.tsa.url")));
        System.out.printf(Locale.ROOT, "setup: lab pid %d, user %s (%s); check: raw timestamp %s%n",
                labPid, labKey.alias(), labKey.signatureAlgorithm("SHA-256"), rawTs.timestamp());
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * The API cells' raw loop: the same two calls of the server's API written directly on the JDK's
     * HttpClient, Jackson and JCA (no TrustLoad code): DSS's getDataToSign → sign → signDocument, or Rest
     * PKI's start → sign → complete (classic or Core routes, CAdES-BES policy), the document attached.
     */
    static final class RawApiSign {
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).build();
        private final Target target;
        private final KeyMaterial key;
        private final String base;
        private final String contentB64;
        private final String certB64;
        private final List<String> chainB64 = new ArrayList<>();

        RawApiSign(Target target, KeyMaterial key, byte[] content) {
            this.target = target;
            this.key = key;
            this.base = target.url().endsWith("/") ? target.url() : target.url() + "/";
            this.contentB64 = Base64.getEncoder().encodeToString(content);
            try {
                this.certB64 = Base64.getEncoder().encodeToString(key.certificate().getEncoded());
                for (X509Certificate c : key.chain()) {
                    chainB64.add(Base64.getEncoder().encodeToString(c.getEncoded()));
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        byte[] sign() throws Exception {
            return target.api().equals("dss") ? dss() : restPki(target.api().equals("rest-pki"));
        }

        private byte[] dss() throws Exception {
            com.fasterxml.jackson.databind.node.ObjectNode body = JSON.createObjectNode();
            com.fasterxml.jackson.databind.node.ObjectNode p = body.putObject("parameters");
            p.putObject("signingCertificate").put("encodedCertificate", certB64);
            var chain = p.putArray("certificateChain");
            chainB64.forEach(c -> chain.addObject().put("encodedCertificate", c));
            p.put("signatureLevel", "CAdES_BASELINE_B");
            p.put("signaturePackaging", "ENVELOPING");
            p.put("digestAlgorithm", "SHA256");
            p.putObject("blevelParams").put("signingDate", System.currentTimeMillis() / 1000 * 1000);
            body.putObject("toSignDocument").put("bytes", contentB64).put("name", "document");
            byte[] toSign = Base64.getDecoder()
                    .decode(post("signature/one-document/getDataToSign", body).get("bytes").asText());
            body.putObject("signatureValue").put("algorithm", "ECDSA_SHA256")
                    .put("value", Base64.getEncoder().encodeToString(jcaSign(toSign)));
            return Base64.getDecoder().decode(post("signature/one-document/signDocument", body).get("bytes").asText());
        }

        private byte[] restPki(boolean classic) throws Exception {
            com.fasterxml.jackson.databind.node.ObjectNode start = JSON.createObjectNode();
            start.put("contentToSign", contentB64);
            start.put("encapsulateContent", true);
            start.put("certificate", certB64);
            start.put("signaturePolicyId", "a4522485-c9e5-46c3-950b-0d6e951e17d1");
            String route = classic ? "Api/CadesSignatures" : "api/cades-signatures";
            var started = post(route, start);
            byte[] signature = jcaSign(Base64.getDecoder().decode(started.get("toSignData").asText()));
            com.fasterxml.jackson.databind.node.ObjectNode done = JSON.createObjectNode();
            done.put("signature", Base64.getEncoder().encodeToString(signature));
            String token = started.get("token").asText();
            return Base64.getDecoder().decode(post(route + "/" + token + (classic ? "/SignedBytes" : ""), done)
                    .get("cms").asText());
        }

        private byte[] jcaSign(byte[] data) throws Exception {
            Signature s = Signature.getInstance("SHA256withECDSA");
            s.initSign(key.privateKey());
            s.update(data);
            return s.sign();
        }

        private com.fasterxml.jackson.databind.JsonNode post(String path, Object body) throws Exception {
            HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
            if (!target.credential().isEmpty()) {
                if (target.api().equals("rest-pki-core")) {
                    r.header("X-Api-Key", target.credential());
                } else {
                    r.header("Authorization", "Bearer " + target.credential());
                }
            }
            HttpResponse<byte[]> resp = http.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (resp.statusCode() / 100 != 2) {
                throw new IllegalStateException(path + ": HTTP " + resp.statusCode() + " "
                        + new String(resp.body(), StandardCharsets.UTF_8));
            }
            return JSON.readTree(resp.body());
        }
    }

    /**
     * RFC 3161 written directly on BouncyCastle's TSP classes and the JDK's HttpClient: SHA-256 of 1 KB of
     * fresh random bytes, a request with a nonce and certReq, POST, parse, check the status and that the
     * answer matches the request ({@code TimeStampResponse.validate}), read the time.
     */
    static final class RawTimestamp {
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).build();
        private final URI tsa;
        /** sendAsync + get(deadline), as TimestampClient does, instead of send. */
        private final boolean async;

        RawTimestamp(URI tsa) {
            this(tsa, false);
        }

        RawTimestamp(URI tsa, boolean async) {
            this.tsa = tsa;
            this.async = async;
        }

        Object timestamp() throws Exception {
            byte[] data = new byte[1024];
            RANDOM.nextBytes(data);
            byte[] imprint = MessageDigest.getInstance("SHA-256").digest(data);
            TimeStampRequestGenerator g = new TimeStampRequestGenerator();
            g.setCertReq(true);
            TimeStampRequest req = g.generate(TSPAlgorithms.SHA256, imprint, new BigInteger(64, RANDOM));
            HttpRequest hr = HttpRequest.newBuilder(tsa).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/timestamp-query")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(req.getEncoded())).build();
            HttpResponse<byte[]> r = async
                    ? http.sendAsync(hr, HttpResponse.BodyHandlers.ofByteArray()).get(35, TimeUnit.SECONDS)
                    : http.send(hr, HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("TSA: HTTP " + r.statusCode());
            }
            TimeStampResponse resp = new TimeStampResponse(r.body());
            if (resp.getStatus() != 0 && resp.getStatus() != 1) {
                throw new IllegalStateException("TSA status " + resp.getStatus());
            }
            resp.validate(req);
            return resp.getTimeStampToken().getTimeStampInfo().getGenTime();
        }
    }

    // ------------------------------------------------------------------ raw implementations

    /** Raw BouncyCastle CMS, attached, default signed attributes, the key's own provider when it has one. */
    static byte[] rawCms(KeyMaterial key, byte[] data) throws Exception {
        JcaContentSignerBuilder csb = new JcaContentSignerBuilder(key.signatureAlgorithm("SHA-256"));
        if (key.provider() != null) {
            csb.setProvider(key.provider());
        }
        ContentSigner signer = csb.build(key.privateKey());
        CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
        gen.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(new JcaDigestCalculatorProviderBuilder().build())
                .build(signer, key.certificate()));
        gen.addCertificates(new JcaCertStore(key.chain()));
        return gen.generate(new CMSProcessableByteArray(data), true).getEncoded();
    }

    /** Raw PDFBox 3 + BC: load, add a detached-CMS signature (ETSI.CAdES.detached), save incrementally. */
    static byte[] rawPades(KeyMaterial key, byte[] pdf) throws Exception {
        try (PDDocument doc = Loader.loadPDF(pdf); SignatureOptions so = new SignatureOptions()) {
            PDSignature sig = new PDSignature();
            sig.setFilter(PDSignature.FILTER_ADOBE_PPKLITE);
            sig.setSubFilter(PDSignature.SUBFILTER_ETSI_CADES_DETACHED);
            sig.setName("bench");
            sig.setSignDate(Calendar.getInstance(TimeZone.getTimeZone("UTC")));
            so.setPreferredSignatureSize(8192);
            doc.addSignature(sig, in -> {
                try {
                    JcaContentSignerBuilder csb = new JcaContentSignerBuilder(key.signatureAlgorithm("SHA-256"));
                    if (key.provider() != null) {
                        csb.setProvider(key.provider());
                    }
                    CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
                    gen.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(
                            new JcaDigestCalculatorProviderBuilder().build()).build(csb.build(key.privateKey()),
                            key.certificate()));
                    gen.addCertificates(new JcaCertStore(key.chain()));
                    return gen.generate(new CMSProcessableByteArray(in.readAllBytes()), false).getEncoded();
                } catch (Exception e) {
                    throw new IOException(e);
                }
            }, so);
            ByteArrayOutputStream bo = new ByteArrayOutputStream(pdf.length + 32768);
            doc.saveIncremental(bo);
            return bo.toByteArray();
        }
    }

    // ------------------------------------------------------------------ cells

    interface Op {
        /** One operation; returns something so that the JIT cannot drop it. */
        Object call(Signature perThread) throws Exception;
    }

    /** The lab's pid, for cells that do not name another server. */
    private static long staticLabPid = -1;

    static long labPidOf(Cell c) {
        return staticLabPid;
    }

    abstract static class Cell {
        final String name;
        /** Client CPU ms per operation of the last run (NaN where not measured). */
        double cpuMsPerOp = Double.NaN;
        /** CPU ms per operation of the threads that sign only (no JIT compiler, no GC threads). */
        double workerMsPerOp = Double.NaN;
        /** Talks to a server (the lab, DSS): its CPU per operation is measured too. */
        boolean server;
        /** The server's process (-1: the lab). */
        long pid = -1;
        /** The lab's CPU ms per operation of the last run (server cells). */
        double serverMsPerOp = Double.NaN;
        /** The client process's CPU ms per operation by thread group in the last run (see {@link ThreadCpuTrace}). */
        Map<String, Double> threadMsPerOp = Map.of();

        Cell server() {
            server = true;
            return this;
        }

        /** Talks to the server of process {@code pid}. */
        Cell server(long pid) {
            this.pid = pid;
            return server();
        }

        long serverPid() {
            return pid >= 0 ? pid : labPidOf(this);
        }

        Cell(String name) {
            this.name = name;
        }

        abstract double run(int threads, int round) throws Exception;
    }

    private List<Cell> cells() {
        int cadesOps = intOpt("cadesOps", 300);
        int padesOps = intOpt("padesOps", 100);
        int jcaOps = intOpt("jcaOps", 400);
        int warmup = intOpt("warmup", 100);
        int maxSeconds = intOpt("maxSeconds", 60);
        SignOptions o = SignOptions.builder().digest("SHA-256").attached(true).level(SignOptions.Level.B).build();
        List<Cell> cells = new ArrayList<>();
        Provider bc = new BouncyCastleProvider();

        // cades=false leaves the CAdES and JCA cells out (e.g. to measure only login and timestamp)
        if (boolOpt("cades", true)) {
            cells.add(new JMeterCell("CAdES sampler in JMeter, P-256 PKCS#12", "cades", false, cadesOps, warmup,
                    maxSeconds));
            cells.add(new LoopCell("CAdES engine (CadesSigner), P-256 PKCS#12", cadesOps, warmup, maxSeconds, null,
                    null, s -> CadesSigner.sign(content, ecKey, o)));
            cells.add(new LoopCell("raw BC CMSSignedDataGenerator, P-256 PKCS#12", cadesOps, warmup, maxSeconds, null,
                    null, s -> rawCms(ecKey, content)));
            cells.add(new LoopCell("JCA SHA256withECDSA (default provider), PKCS#12", jcaOps, warmup, maxSeconds,
                    "SHA256withECDSA", null, s -> sign(s, ecKey)));
            cells.add(new LoopCell("JCA SHA256withECDSA (BC provider), PKCS#12", jcaOps, warmup, maxSeconds,
                    "SHA256withECDSA", bc, s -> sign(s, ecKey)));
            cells.add(new LoopCell("JCA SHA256withRSA (default provider), RSA-2048", jcaOps / 4, warmup / 4, maxSeconds,
                    "SHA256withRSA", null, s -> sign(s, rsaKey)));
        }
        if (hsmKey != null) {
            cells.add(new JMeterCell("CAdES sampler in JMeter, P-256 SoftHSM", "cades", true, cadesOps, warmup,
                    maxSeconds));
            cells.add(new LoopCell("CAdES engine (CadesSigner), P-256 SoftHSM", cadesOps, warmup, maxSeconds, null,
                    null, s -> CadesSigner.sign(content, hsmKey, o)));
            cells.add(new LoopCell("raw BC CMSSignedDataGenerator, P-256 SoftHSM", cadesOps, warmup, maxSeconds, null,
                    null, s -> rawCms(hsmKey, content)));
            cells.add(new LoopCell("JCA SHA256withECDSA, SoftHSM (SunPKCS11)", jcaOps, warmup, maxSeconds,
                    "SHA256withECDSA", hsmKey.provider(), s -> sign(s, hsmKey)));
        }
        if (boolOpt("pades", true)) {
            cells.add(new JMeterCell("PAdES sampler in JMeter, P-256 PKCS#12", "pades", false, padesOps, warmup / 2,
                    maxSeconds));
            cells.add(new LoopCell("PAdES engine (PadesSigner), P-256 PKCS#12", padesOps, warmup / 2, maxSeconds, null,
                    null, s -> PadesSigner.sign(content, ecKey, o)));
            cells.add(new LoopCell("raw PDFBox 3 + BC, P-256 PKCS#12", padesOps, warmup / 2, maxSeconds, null, null,
                    s -> rawPades(ecKey, content)));
        }
        if (lab != null) {
            int tsOps = intOpt("timestampOps", cadesOps);
            TimestampClient tsEngine = new TimestampClient(URI.create(labProps.getProperty("pki.tsa.url")),
                    Duration.ofSeconds(5), Duration.ofSeconds(30));
            RawTimestamp rawTs = new RawTimestamp(URI.create(labProps.getProperty("pki.tsa.url")));
            boolean jm = boolOpt("jmeter", true); // jmeter=false: the in-JVM loops only
            if (jm) {
                cells.add(new JMeterCell(TS_SAMPLER, "timestamp", false, tsOps, warmup, maxSeconds).server());
            }
            cells.add(new LoopCell(TS_ENGINE, tsOps, warmup, maxSeconds, null, null, s -> {
                byte[] data = new byte[1024];
                RANDOM.nextBytes(data);
                return tsEngine.request(MessageDigest.getInstance("SHA-256").digest(data), "SHA-256");
            }).server());
            cells.add(new LoopCell(TS_RAW, tsOps, warmup, maxSeconds, null, null, s -> rawTs.timestamp()).server());
            if (boolOpt("rawAsync", false)) { // the raw loop with sendAsync, as TimestampClient posts
                RawTimestamp rawAsync = new RawTimestamp(URI.create(labProps.getProperty("pki.tsa.url")), true);
                cells.add(new LoopCell(TS_RAW + " (sendAsync)", tsOps, warmup, maxSeconds, null, null,
                        s -> rawAsync.timestamp()).server());
            }
        }
        if (lab != null && boolOpt("api", true)) {
            // CAdES-B of the document through a server's API with a lab user's key: the sampler in JMeter, the
            // lib's API client, and a raw loop of the same calls; against the lab's Rest PKI and against DSS
            int apiOps = intOpt("apiOps", cadesOps / 3);
            List<Target> targets = new ArrayList<>();
            targets.add(new Target(labProps.getProperty("pki.api", "rest-pki-core"), labProps.getProperty("pki.url"),
                    labProps.getProperty("pki.credential", ""), labPid, "lab"));
            if (dss != null) {
                targets.add(new Target("dss", dss.url(), "", dss.handle().pid(), "EU DSS 6.4"));
            }
            apiTargets.addAll(targets);
            for (Target t : targets) {
                SignatureServer server;
                try {
                    server = new SignatureServer(
                            new SignatureServer.Settings(t.api(), URI.create(t.url()), t.credential(),
                            "", null, null, null, List.of(), false, Duration.ofSeconds(5), Duration.ofSeconds(10),
                            Duration.ofSeconds(60)));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                SignRequest request = new SignRequest("cades", false, "SHA-256", true, content, labKey, null, "");
                RawApiSign raw = new RawApiSign(t, labKey, content);
                if (boolOpt("jmeter", true)) {
                    cells.add(new JMeterCell(apiCell(t, "sampler"), "remote", false, apiOps, warmup / 3, maxSeconds)
                            .target(t).server(t.pid()));
                }
                cells.add(new LoopCell(apiCell(t, "engine"), apiOps, warmup / 3, maxSeconds, null, null,
                        x -> server.signatures().sign(request).orThrow()).server(t.pid()));
                cells.add(new LoopCell(apiCell(t, "raw"), apiOps, warmup / 3, maxSeconds, null, null,
                        x -> raw.sign()).server(t.pid()));
            }
        }
        if (boolOpt("openssl", true)) {
            cells.add(new OpensslCell("openssl speed rsa2048 sign", "rsa"));
            cells.add(new OpensslCell("openssl speed ecdsap256 sign", "ecdsa"));
        }
        return cells;
    }

    static final String TS_SAMPLER = "Timestamp Request sampler in JMeter";

    /** A signature server the API cells talk to. */
    record Target(String api, String url, String credential, long pid, String product) {
    }

    static String apiCell(Target t, String what) {
        return switch (what) {
            case "sampler" -> "CAdES Sign remote in JMeter, " + t.api() + " (" + t.product() + ")";
            case "engine" -> "API engine (SignatureApiClient), " + t.api() + " (" + t.product() + ")";
            default -> "raw JDK HttpClient + Jackson + JCA, " + t.api() + " (" + t.product() + ")";
        };
    }
    static final String TS_ENGINE = "timestamp engine (TimestampClient)";
    static final String TS_RAW = "raw BC TSP + JDK HttpClient";

    private byte[] sign(Signature s, KeyMaterial key) throws Exception {
        s.initSign(key.privateKey());
        s.update(content);
        return s.sign();
    }

    /** An in-JVM loop: warm-up per thread, then a common start; count- and time-bounded. */
    final class LoopCell extends Cell {
        private final int ops;
        private final int warmup;
        private final int maxSeconds;
        private final String jcaAlg;
        private final Provider provider;
        private final Op op;

        LoopCell(String name, int ops, int warmup, int maxSeconds, String jcaAlg, Provider provider, Op op) {
            super(name);
            this.ops = ops;
            this.warmup = warmup;
            this.maxSeconds = maxSeconds;
            this.jcaAlg = jcaAlg;
            this.provider = provider;
            this.op = op;
        }

        @Override
        double run(int threads, int round) throws Exception {
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            AtomicInteger done = new AtomicInteger();
            AtomicInteger errors = new AtomicInteger();
            java.util.concurrent.atomic.AtomicLong workerNanos = new java.util.concurrent.atomic.AtomicLong();
            List<Thread> ws = new ArrayList<>();
            long[] deadline = new long[1];
            String[] firstError = new String[1];
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(() -> {
                    Signature s = null;
                    try {
                        if (jcaAlg != null) {
                            s = provider != null ? Signature.getInstance(jcaAlg, provider)
                                    : Signature.getInstance(jcaAlg);
                        }
                        long warmEnd = System.nanoTime() + maxSeconds * 1_000_000_000L / 2;
                        for (int i = 0; i < warmup && System.nanoTime() < warmEnd; i++) {
                            op.call(s);
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        firstError[0] = String.valueOf(e);
                    }
                    ready.countDown();
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    long tc0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                    for (int i = 0; i < ops && System.nanoTime() < deadline[0]; i++) {
                        try {
                            op.call(s);
                            done.incrementAndGet();
                        } catch (Exception e) {
                            errors.incrementAndGet();
                            firstError[0] = String.valueOf(e);
                        }
                    }
                    workerNanos.addAndGet(java.lang.management.ManagementFactory.getThreadMXBean()
                            .getCurrentThreadCpuTime() - tc0);
                }, "bench-" + t);
                ws.add(w);
                w.start();
            }
            if (!ready.await(maxSeconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException("warm-up did not finish in " + maxSeconds + " s");
            }
            long self = ProcessHandle.current().pid();
            Map<Long, ProcCpu.ThreadCpu> threads0 = ProcCpu.threads(self);
            long cpu0 = ProcCpu.selfNanos();
            long lab0 = server ? ProcCpu.processMs(serverPid()) : -1;
            long t0 = System.nanoTime();
            deadline[0] = t0 + maxSeconds * 1_000_000_000L;
            go.countDown();
            for (Thread w : ws) {
                w.join(maxSeconds * 1000L + 30_000);
            }
            long ns = System.nanoTime() - t0;
            long cpu1 = ProcCpu.selfNanos();
            cpuMsPerOp = done.get() == 0 ? Double.NaN : (cpu1 - cpu0) / 1e6 / done.get();
            if (done.get() > 0) {
                // the loop threads have ended: their CPU is the one they measured themselves
                Map<String, Double> byThread = ThreadCpuTrace.msByGroup(threads0, ProcCpu.threads(self));
                byThread.keySet().removeIf(g -> g.startsWith("bench-"));
                byThread.put("bench-N (the loop threads)", workerNanos.get() / 1e6);
                threadMsPerOp = perOp(byThread, (cpu1 - cpu0) / 1e6, done.get());
            }
            if (server && lab0 >= 0 && done.get() > 0) {
                serverMsPerOp = (ProcCpu.processMs(serverPid()) - lab0) / (double) done.get();
            }
            workerMsPerOp = done.get() == 0 ? Double.NaN : workerNanos.get() / 1e6 / done.get();
            if (errors.get() > 0) {
                throw new IllegalStateException(errors.get() + " errors, e.g. " + firstError[0]);
            }
            return done.get() * 1e9 / ns;
        }
    }

    /** The label of the measured thread group's samples (the warm-up group's are "warmup"). */
    static final String MEASURED = "measured";

    /** A one-cell plan in the assembled JMeter, headless child; throughput from the measured group's JTL rows. */
    final class JMeterCell extends Cell {
        private final String kind;
        private final boolean hsm;
        private final int ops;
        private final int warmup;
        private final int maxSeconds;

        /** For kind {@code remote}: the server whose API the CAdES Sign sampler calls. */
        private Target target;

        JMeterCell target(Target t) {
            this.target = t;
            return this;
        }

        JMeterCell(String name, String kind, boolean hsm, int ops, int warmup, int maxSeconds) {
            super(name);
            this.kind = kind;
            this.hsm = hsm;
            this.ops = ops;
            this.warmup = warmup;
            this.maxSeconds = maxSeconds;
        }

        @Override
        double run(int threads, int round) throws Exception {
            Path dir = out.resolve("jmeter")
                    .resolve(kind + (target == null ? "" : "-" + target.api()) + (hsm ? "-hsm" : "-mem")
                    + "-t" + threads + "-r" + (round + 1));
            // beside its results folder: the runner empties that folder first
            Path plan = Files.createDirectories(dir.getParent()).resolve(dir.getFileName() + ".jmx");
            PlanTree.init(jmeterHome);
            PlanTree.save(plan(threads), plan);
            List<String> jvm = new ArrayList<>(List.of("-Xms256m", "-Xmx512m"));
            if (jfr) {
                jvm.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                        + dir.resolve("jmeter.jfr"));
            }
            // two warm-up + measure phases each capped by the thread groups' scheduler, plus JVM start
            long limit = maxSeconds + Math.max(maxSeconds, Math.max(intOpt("jmeterWarmupSeconds", 0),
                    intOpt("jmeterWarmupOps", 0) > 0 ? 300 : 0)) + 120L;
            JMeterRun run = JMeterRun.start(jmeterHome, plan, dir, jvm, List.of(
                    "-Jcell.max.seconds=" + maxSeconds, "-Jsummariser.name=",
                    "-Jjmeter.save.saveservice.response_code=false", "-Jjmeter.save.saveservice.response_message=false",
                    "-Jjmeter.save.saveservice.thread_name=" + (warmOps() > 0),
                    "-Jjmeter.save.saveservice.data_type=false",
                    "-Jjmeter.save.saveservice.bytes=false", "-Jjmeter.save.saveservice.sent_bytes=false",
                    "-Jjmeter.save.saveservice.url=false", "-Jjmeter.save.saveservice.latency=false",
                    "-Jjmeter.save.saveservice.connect_time=false", "-Jjmeter.save.saveservice.idle_time=false",
                    "-Jjmeter.save.saveservice.thread_counts=false",
                    "-Jjmeter.save.saveservice.assertion_results_failure_message=false"), limit);
            long pid = run.pid();
            // the process's CPU every 50 ms: the CPU of the measured phase is interpolated at its first/last sample
            List<long[]> cpuTrace = new ArrayList<>();
            List<long[]> workerTrace = new ArrayList<>(); // the measured group's threads ("measure 1-1" ...)
            List<long[]> labTrace = new ArrayList<>();
            ThreadCpuTrace threadTrace = new ThreadCpuTrace(pid); // every other poll: 100 ms
            int polls = 0;
            for (long c; pid > 0 && (c = ProcCpu.processMs(pid)) >= 0; Thread.sleep(50)) {
                cpuTrace.add(new long[] {System.currentTimeMillis(), c});
                workerTrace.add(new long[] {System.currentTimeMillis(), ProcCpu.threadsMs(pid, "measure")});
                if (polls++ % 2 == 0) {
                    threadTrace.snapshot();
                }
                if (server) {
                    labTrace.add(new long[] {System.currentTimeMillis(), ProcCpu.processMs(serverPid())});
                }
            }
            JMeterRun.Result result = run.await();
            if (result.exit() != 0) {
                throw new IllegalStateException("JMeter " + (result.timedOut() ? "timed out" : "failed") + "; see "
                        + dir);
            }
            Path jtl = result.jtl();
            // one reader of results files (the harness's; quoted fields too), rows of the measured label only:
            // Certificate Login's step sub-results carry other labels
            List<org.trustload.harness.results.Jtl.Sample> rows = new ArrayList<>();
            org.trustload.harness.results.Jtl.forEach(jtl, x -> {
                if (x.label().equals(MEASURED)) {
                    rows.add(x);
                }
            });
            // jmeterWarmupOps: the measured window starts once every thread has done its warm-up operations
            long from = Long.MIN_VALUE;
            if (warmOps() > 0) {
                Map<String, List<Long>> starts = new java.util.HashMap<>();
                for (var x : rows) {
                    starts.computeIfAbsent(x.threadName(), k -> new ArrayList<>()).add(x.timeStamp());
                }
                for (var e : starts.entrySet()) {
                    List<Long> l = e.getValue();
                    l.sort(null);
                    if (l.size() <= warmOps()) {
                        throw new IllegalStateException(e.getKey() + " did not finish its " + warmOps()
                                + " warm-up operations (" + l.size() + " samples); see " + dir);
                    }
                    from = Math.max(from, l.get(warmOps()));
                }
            }
            int n = 0;
            int errors = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (var x : rows) {
                if (x.timeStamp() < from) {
                    continue; // warm-up rows
                }
                first = Math.min(first, x.timeStamp());
                last = Math.max(last, x.end());
                n++;
                if (!x.success()) {
                    errors++;
                }
            }
            if (errors > 0 || n == 0) {
                throw new IllegalStateException(n + " samples, " + errors + " errors; see " + dir);
            }
            cpuMsPerOp = (cpuAt(cpuTrace, last) - cpuAt(cpuTrace, first)) / n;
            threadMsPerOp =
                    perOp(threadTrace.msByGroup(first, last), cpuAt(cpuTrace, last) - cpuAt(cpuTrace, first), n);
            if (server) {
                serverMsPerOp = (cpuAt(labTrace, last) - cpuAt(labTrace, first)) / n;
            }
            // the group's threads exist only while it runs: their CPU at its end, polled last before they ended
            workerMsPerOp = workerTrace.stream().mapToLong(x -> x[1]).max().orElse(0) / (double) n;
            if (warmOps() > 0) { // the same threads warmed up: their CPU over the window only
                workerMsPerOp = threadMsPerOp.entrySet().stream().filter(e -> e.getKey().startsWith("measure"))
                        .mapToDouble(Map.Entry::getValue).sum();
            }
            return n * 1000.0 / Math.max(1, last - first);
        }

        private HashTree plan(int threads) {
            HashTree tree = PlanTree.plan("pki-bench", false);
            HashTree root = PlanTree.planNode(tree);
            boolean remote = "remote".equals(kind);
            if (server) {
                root.add(PlanTree.element("org.trustload.jmeter.pki.SignatureServerConfig", PlanTree.TEST_BEAN_GUI,
                        "Signature Server Config", "configName", "signature-server", "api",
                        remote ? target.api() : "rest-pki",
                        "serverUrl", remote ? target.url() : "", "credential", remote ? target.credential() : "",
                        "tsaUrl", remote ? "" : labProps.getProperty("pki.tsa.url"), "loginUrl", "", "mtlsUrl", "",
                        "trustAnchorsFile", labProps.getProperty("pki.trust.anchors"), "trustAll", false,
                        "connectTimeout", "5000", "handshakeTimeout", "10000", "responseTimeout", "30000"));
            }
            root.add(PlanTree.element("org.trustload.jmeter.pki.KeyStoreConfig", PlanTree.TEST_BEAN_GUI,
                    "Key Store Config", "poolName", "default", "sourceType", hsm ? "pkcs11" : "pkcs12",
                    "keyStoreFile",
                    hsm ? "" : remote ? labProps.getProperty("pki.keystore") : ecPki.usersFile().toString(),
                    "keyStorePassword",
                    hsm ? PIN : remote ? labProps.getProperty("pki.keystore.password") : ecPki.password(),
                    "aliases", hsm ? hsmLabel : remote ? labKey.alias() : ecKey.alias(), "excludeAliases", "",
                    "certificateFile", "", "pkcs11Config", hsm ? p11Config.toString() : "", "assignment", "per-thread",
                    "aliasVariable", "keyAlias"));
            // jmeterWarmupSeconds=N: the warm-up group runs N seconds (no count), so a fresh JMeter JVM gets
            // about the JIT warm-up the bench JVM's loops had; 0 (default): `warmup` operations per thread
            // jmeterWarmupOps=N: no setUp group; the measured group's own threads run N operations first and the
            // window starts when every thread has done them. A warm-up in another thread group leaves JMeter's
            // per-sample code (controllers, TestBeanHelper, the sampler's elements) to be deoptimized and compiled
            // again when the measured group starts: JFR showed that burst of deoptimizations at the switch and
            // C2 compiling through the measured window (0.1-0.4 ms of compiler CPU per login or timestamp)
            int warmSeconds = intOpt("jmeterWarmupSeconds", 0);
            String gui = "org.apache.jmeter.threads.gui.";
            if (warmOps() > 0) {
                root.add(PlanTree.threadGroup(new ThreadGroup(), gui + "ThreadGroupGui", "measure", threads,
                        warmOps() + ops, Integer.toString(300 + maxSeconds)), sampler(MEASURED));
            } else {
                root.add(PlanTree.threadGroup(new SetupThreadGroup(), gui + "SetupThreadGroupGui", "warmup", threads,
                        warmSeconds > 0 ? -1 : warmup,
                        warmSeconds > 0 ? Integer.toString(warmSeconds) : "${__P(cell.max.seconds,60)}"),
                        sampler("warmup"));
                root.add(PlanTree.threadGroup(new ThreadGroup(), gui + "ThreadGroupGui", "measure", threads, ops,
                        "${__P(cell.max.seconds,60)}"), sampler(MEASURED));
            }
            return tree;
        }

        /** jmeterWarmupOps for this cell (a quarter for PAdES, as `warmup` is halved for it), 0 when not set. */
        private int warmOps() {
            int w = intOpt("jmeterWarmupOps", 0);
            return "pades".equals(kind) ? w / 4 : w;
        }

        /**
         * The cell's sampler: CAdES or PAdES Sign; against the lab's server, a Timestamp Request (as in
         * pki/timestamp.jmx).
         */
        private TestElement sampler(String label) {
            boolean remote = "remote".equals(kind);
            if (server && !remote) {
                return PlanTree.element("org.trustload.jmeter.pki.TimestampRequestSampler", PlanTree.TEST_BEAN_GUI,
                        label,
                        "configName", "signature-server", "digest", "SHA-256", "inputFile", "", "inputVariable", "",
                        "randomBytes", "1024", "outputVariable", "");
            }
            // local level B: no Signature Server Config needed (the bench measures signing in JMeter); remote:
            // the server's API builds the CAdES around the signing step, as in pki/cades.jmx
            TestElement s = PlanTree.element("org.trustload.jmeter.pki." + ("pades".equals(kind) ? "Pades" : "Cades")
                    + "SignSampler",
                    PlanTree.TEST_BEAN_GUI, label, "keyPool", "default", "level", "B", "digest", "SHA-256",
                    "mode", remote ? "remote" : "local", "configName", "signature-server", "inputFile",
                    contentFile.toString(), "inputVariable", "", "outputVariable", "", "outputFile", "");
            if (!"pades".equals(kind)) {
                s.setProperty("attached", true);
            }
            return s;
        }
    }

    /**
     * CPU ms per operation by thread group, plus what the process used beyond its live threads (threads that
     * ended between two snapshots, and polling error) as "(ended threads / rounding)".
     */
    static Map<String, Double> perOp(Map<String, Double> msByGroup, double processMs, int ops) {
        Map<String, Double> m = new TreeMap<>();
        double sum = 0;
        for (var e : msByGroup.entrySet()) {
            m.put(e.getKey(), e.getValue() / ops);
            sum += e.getValue();
        }
        m.put("(ended threads / rounding)", (processMs - sum) / ops);
        return m;
    }

    /** A process's CPU at time {@code t} (ms), interpolated between the polled points. */
    static double cpuAt(List<long[]> trace, long t) {
        if (trace.isEmpty()) {
            return Double.NaN;
        }
        long[] prev = trace.get(0);
        for (long[] pt : trace) {
            if (pt[0] >= t) {
                if (pt[0] == prev[0]) {
                    return pt[1];
                }
                return prev[1] + (pt[1] - prev[1]) * (double) (t - prev[0]) / (pt[0] - prev[0]);
            }
            prev = pt;
        }
        return prev[1];
    }


    /** openssl speed -seconds 3 (2 threads: -multi 2); sign/s from the summary lines. */
    final class OpensslCell extends Cell {
        private final String which;

        OpensslCell(String name, String which) {
            super(name);
            this.which = which;
        }

        @Override
        double run(int threads, int round) throws Exception {
            List<String> cmd = new ArrayList<>(List.of("openssl", "speed", "-seconds", "3"));
            if (threads > 1) {
                cmd.addAll(List.of("-multi", Integer.toString(threads)));
            }
            cmd.add("rsa".equals(which) ? "rsa2048" : "ecdsap256");
            String s = exec(120, cmd.toArray(new String[0]));
            Files.writeString(out.resolve("openssl-" + which + "-t" + threads + "-r" + (round + 1) + ".txt"), s);
            // "rsa 2048 bits 0.000830s 0.000025s 1204.8 40000.0" / "256 bits ecdsa (nistp256) 0.0000s 0.0001s 32000.0
            // 11000.0"
            Pattern p = "rsa".equals(which)
                    ? Pattern.compile("(?m)^rsa\\s+2048 bits\\s+[\\d.]+s\\s+[\\d.]+s\\s+([\\d.]+)\\s+([\\d.]+)")
                    : Pattern.compile(
                            "(?m)^\\s*256 bits ecdsa \\(nistp256\\)\\s+[\\d.]+s\\s+[\\d.]+s\\s+([\\d.]+)\\s+([\\d.]+)");
            Matcher m = p.matcher(s);
            if (!m.find()) {
                throw new IllegalStateException("no summary line in openssl speed output");
            }
            return Double.parseDouble(m.group(1));
        }
    }

    // ------------------------------------------------------------------ report

    private static double median(List<Double> v) {
        return org.trustload.common.Percentiles.median(v);
    }

    private double med(String cell, int t) {
        Map<Integer, List<Double>> m = results.get(cell);
        return m == null || !m.containsKey(t) ? Double.NaN : median(m.get(t));
    }

    private void print(List<Integer> threads, int rounds) {
        StringBuilder b = new StringBuilder();
        b.append("\n## Operations/s: signatures, logins, timestamps (median of ").append(rounds)
                .append(" interleaved rounds; ms/op = 1000 × threads ÷ rate)\n\n");
        b.append("| implementation |");
        for (int t : threads) {
            b.append(" ").append(t).append(" thread").append(t > 1 ? "s" : "").append(" /s | ms/op |");
        }
        b.append(" rounds |\n|---|");
        for (int t : threads) {
            b.append("---:|---:|");
        }
        b.append("---|\n");
        for (var e : results.entrySet()) {
            b.append("| ").append(e.getKey()).append(" |");
            for (int t : threads) {
                double v = med(e.getKey(), t);
                b.append(String.format(Locale.ROOT, " %.1f | %.2f |", v, 1000.0 * t / v));
            }
            StringBuilder all = new StringBuilder();
            for (int t : threads) {
                List<Double> l = e.getValue().get(t);
                if (l != null) {
                    all.append(all.length() > 0 ? "; " : "").append("t").append(t).append(":");
                    for (double d : l) {
                        all.append(String.format(Locale.ROOT, " %.0f", d));
                    }
                }
            }
            b.append(" ").append(all).append(" |\n");
        }
        b.append("\n## Client CPU ms per operation, min–max over rounds (process; the measuring threads only)\n\n|"
                + " implementation |");
        for (int t : threads) {
            b.append(" t").append(t).append(" process | t").append(t).append(" signing threads |");
        }
        b.append("\n|---|");
        for (int ignored : threads) {
            b.append("---:|---:|");
        }
        b.append("\n");
        for (var e : cpu.entrySet()) {
            if (e.getValue().values().stream().flatMap(List::stream).allMatch(d -> d.isNaN())) {
                continue;
            }
            b.append("| ").append(e.getKey()).append(" |");
            for (int t : threads) {
                b.append(" ").append(minMax(e.getValue().get(t))).append(" | ")
                        .append(minMax(workerCpu.getOrDefault(e.getKey(), Map.of()).get(t))).append(" |");
            }
            b.append("\n");
        }
        if (!serverCpu.isEmpty()) {
            b.append("\n## The server's CPU ms per operation (timestamp and API cells; min–max over rounds)\n\n")
                    .append("The lab (pki service, its own JVM) or EU DSS (its own JVM) serves them on loopback: its"
                            + " CPU per operation beside the client's shows whether the server was the bottleneck.\n\n|"
                            + " implementation |");
            for (int t : threads) {
                b.append(" t").append(t).append(" server |");
            }
            b.append("\n|---|");
            for (int ignored : threads) {
                b.append("---:|");
            }
            b.append("\n");
            for (var e : serverCpu.entrySet()) {
                b.append("| ").append(e.getKey()).append(" |");
                for (int t : threads) {
                    b.append(" ").append(minMax(e.getValue().get(t))).append(" |");
                }
                b.append("\n");
            }
        }
        printThreads(b, threads);
        b.append("\n1-min load after each round: ").append(String.join(", ", loads)).append("; JFR ")
                .append(jfr ? "on (JMeter cells: jmeter/*/jmeter.jfr; in-JVM loops: jfr/bench-jvm-loops.jfr)" : "off")
                .append("\n");
        b.append("\n## Ratios (medians of the per-round ratios, min–max in brackets)\n\n| ratio |");
        for (int t : threads) {
            b.append(" t").append(t).append(" |");
        }
        b.append("\n|---|");
        for (int ignored : threads) {
            b.append("---:|");
        }
        b.append("\n");
        ratio(b, threads, "CAdES sampler / raw BC CMS (P-256 PKCS#12) — target ≥ 0.9",
                "CAdES sampler in JMeter, P-256 PKCS#12", "raw BC CMSSignedDataGenerator, P-256 PKCS#12");
        ratio(b, threads, "CAdES engine / raw BC CMS (P-256 PKCS#12)",
                "CAdES engine (CadesSigner), P-256 PKCS#12", "raw BC CMSSignedDataGenerator, P-256 PKCS#12");
        ratio(b, threads, "CAdES sampler / CAdES engine (JMeter's share)",
                "CAdES sampler in JMeter, P-256 PKCS#12", "CAdES engine (CadesSigner), P-256 PKCS#12");
        ratio(b, threads, "CAdES sampler / raw BC CMS (SoftHSM)",
                "CAdES sampler in JMeter, P-256 SoftHSM", "raw BC CMSSignedDataGenerator, P-256 SoftHSM");
        ratio(b, threads, "CAdES sampler SoftHSM / PKCS#12",
                "CAdES sampler in JMeter, P-256 SoftHSM", "CAdES sampler in JMeter, P-256 PKCS#12");
        ratio(b, threads, "JCA ECDSA SoftHSM / PKCS#12 (default provider)",
                "JCA SHA256withECDSA, SoftHSM (SunPKCS11)", "JCA SHA256withECDSA (default provider), PKCS#12");
        ratio(b, threads, "PAdES sampler / raw PDFBox+BC",
                "PAdES sampler in JMeter, P-256 PKCS#12", "raw PDFBox 3 + BC, P-256 PKCS#12");
        ratio(b, threads, "PAdES engine / raw PDFBox+BC",
                "PAdES engine (PadesSigner), P-256 PKCS#12", "raw PDFBox 3 + BC, P-256 PKCS#12");
        ratio(b, threads, "Timestamp Request sampler / raw TSP loop — target ≥ 0.9", TS_SAMPLER, TS_RAW);
        ratio(b, threads, "timestamp engine / raw TSP loop", TS_ENGINE, TS_RAW);
        ratio(b, threads, "raw TSP loop with sendAsync / with send", TS_RAW + " (sendAsync)", TS_RAW);
        for (Target t : apiTargets) {
            ratio(b, threads, "CAdES Sign remote sampler / raw API loop, " + t.api() + " — target ≥ 0.9",
                    apiCell(t, "sampler"), apiCell(t, "raw"));
            ratio(b, threads, "API engine / raw API loop, " + t.api(), apiCell(t, "engine"), apiCell(t, "raw"));
            cpuRatio(b, threads, "client CPU per signature, sampler / raw API loop, " + t.api(), apiCell(t, "sampler"),
                    apiCell(t, "raw"));
        }
        ratio(b, threads, "raw BC CMS / JCA ECDSA over the content",
                "raw BC CMSSignedDataGenerator, P-256 PKCS#12", "JCA SHA256withECDSA (default provider), PKCS#12");
        if (!notes.isEmpty()) {
            b.append("\nNotes:\n");
            for (String n : notes) {
                b.append("- ").append(n).append('\n');
            }
        }
        System.out.print(b);
        try {
            Files.writeString(out.resolve("bench.md"), b.toString());
        } catch (IOException ignored) {
            // the table went to stdout too
        }
    }

    /** Per cell and thread count: CPU ms per operation by thread group (median of the rounds), largest first. */
    private void printThreads(StringBuilder b, List<Integer> threads) {
        b.append("\n## Client CPU ms per operation by thread (median of the rounds; groups under 0.005 ms/op folded"
                + " into 'other')\n\n")
                .append("/proc/<pid>/task/*/schedstat over the measured window: JMeter cells every 100 ms, interpolated"
                        + " at the measured group's first and last sample; in-JVM loops at the loop's start and end"
                        + " (their loop threads as they measured themselves).\n\n| implementation | threads | CPU ms/op"
                        + " by thread group |\n|---|---:|---|\n");
        for (var e : threadCpu.entrySet()) {
            for (int t : threads) {
                List<Map<String, Double>> rounds = e.getValue().get(t);
                if (rounds == null || rounds.stream().allMatch(Map::isEmpty)) {
                    continue;
                }
                Map<String, Double> med = new TreeMap<>();
                rounds.stream().flatMap(m -> m.keySet().stream()).distinct().forEach(g -> med.put(g,
                        median(rounds.stream().filter(m -> !m.isEmpty()).map(m -> m.getOrDefault(g, 0.0)).toList())));
                double other = med.entrySet().stream().filter(x -> Math.abs(x.getValue()) < 0.005)
                        .mapToDouble(Map.Entry::getValue).sum();
                StringBuilder row = new StringBuilder();
                med.entrySet().stream().filter(x -> Math.abs(x.getValue()) >= 0.005)
                        .sorted((x, y) -> Double.compare(y.getValue(), x.getValue()))
                        .forEach(x -> row.append(row.length() > 0 ? ", " : "").append(x.getKey())
                                .append(String.format(Locale.ROOT, " %.3f", x.getValue())));
                row.append(String.format(Locale.ROOT, ", other %.3f", other));
                b.append("| ").append(e.getKey()).append(" | ").append(t).append(" | ").append(row).append(" |\n");
            }
        }
    }

    /** Like {@link #ratio} for the client CPU per operation (lower is better: ≤ 1.1 is within 10%). */
    private void cpuRatio(StringBuilder b, List<Integer> threads, String title, String num, String den) {
        if (!cpu.containsKey(num) || !cpu.containsKey(den)) {
            return;
        }
        b.append("| ").append(title).append(" |");
        for (int t : threads) {
            double n = median(cpu.get(num).getOrDefault(t, List.of()));
            double d = median(cpu.get(den).getOrDefault(t, List.of()));
            b.append(String.format(Locale.ROOT, " %.2f (%.2f / %.2f ms) |", n / d, n, d));
        }
        b.append("\n");
    }

    private void ratio(StringBuilder b, List<Integer> threads, String title, String num, String den) {
        if (!results.containsKey(num) || !results.containsKey(den)) {
            return;
        }
        b.append("| ").append(title).append(" |");
        for (int t : threads) {
            List<Double> a = results.get(num).get(t);
            List<Double> c = results.get(den).get(t);
            List<Double> r = new ArrayList<>();
            for (int i = 0; a != null && c != null && i < Math.min(a.size(), c.size()); i++) {
                r.add(a.get(i) / c.get(i));
            }
            double min = r.stream().filter(d -> !d.isNaN()).mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            double max = r.stream().filter(d -> !d.isNaN()).mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            b.append(String.format(Locale.ROOT, " %.2f (%.2f–%.2f) |", median(r), min, max));
        }
        b.append("\n");
    }

    private static String minMax(List<Double> v) {
        if (v == null) {
            return "";
        }
        double min = v.stream().filter(d -> !d.isNaN()).mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double max = v.stream().filter(d -> !d.isNaN()).mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        if (Double.isNaN(min)) {
            return "–";
        }
        String a = String.format(Locale.ROOT, "%.3f", min);
        String c = String.format(Locale.ROOT, "%.3f", max);
        return a.equals(c) ? a : a + "–" + c;
    }
}
