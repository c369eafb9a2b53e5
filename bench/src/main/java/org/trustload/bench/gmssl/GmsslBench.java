package org.trustload.bench.gmssl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.trustload.bench.ProcCpu;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.testing.NativeTlcpPeer;

/**
 * GM-SSL bench ({@code ./trustload bench gmssl}): what a TLCP handshake costs our client against what it
 * costs the server, for the {@code full} and {@code minimal} client crypto modes (issue 28), against the
 * lab's gateway (the bc server in its JVM) and the native Tongsuo peer; the CPS one client engine drives
 * against the peer beside the native C client's; and the sampler's own cost in-process. Every loop is
 * bounded by time; CPU is from /proc (server processes) and the JVM (this client).
 *
 * <p>Keys: {@code out=DIR parts=ratio,saturation,inprocess servers=lab,peer suites=... auth=false,true
 * rounds=3 seconds=4 warmup=5 threads=1 op=handshake|cps satThreads=4 satSeconds=8 jfr=true
 * inprocessSuites=... doc=false}.
 */
public final class GmsslBench {
    private static final String BEGIN =
            "<!-- gmssl-bench:begin (./trustload bench gmssl doc=true writes this section) -->";
    private static final String END = "<!-- gmssl-bench:end -->";

    private GmsslBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        Path root = Path.of(System.getProperty("trustload.root", ".")).toAbsolutePath().normalize();
        o.put("out", root.resolve("bench/target/gmssl-bench/run").toString());
        o.put("parts", "ratio,saturation,inprocess");
        o.put("servers", "lab,peer");
        o.put("suites", "ECC_SM4_CBC_SM3,ECC_SM4_GCM_SM3,ECDHE_SM4_CBC_SM3,ECDHE_SM4_GCM_SM3");
        o.put("auth", "false,true");
        o.put("rounds", "3");
        o.put("seconds", "4");
        o.put("warmup", "5");
        o.put("threads", "1");
        o.put("op", "handshake");
        o.put("satThreads", "4");
        o.put("satSeconds", "8");
        o.put("inprocessSuites", "ECC_SM4_CBC_SM3");
        o.put("jfr", "true");
        o.put("doc", "false");
        for (String a : args) {
            int eq = a.indexOf('=');
            o.put(a.substring(0, eq), a.substring(eq + 1));
        }
        Path out = Path.of(o.get("out"));
        Files.createDirectories(out);
        List<String> parts = List.of(o.get("parts").split(","));
        String loadBefore = load();
        Instant started = Instant.now();
        int base = 16000 + (int) (ProcessHandle.current().pid() % 8) * 1000; // the tlcp helper's lab bases
        Path socketDir = Files.createTempDirectory("tlgmb");
        Path labProps = out.resolve("lab.properties");
        StringBuilder report = new StringBuilder();
        Recording jfr = null;
        try (Lab lab = Lab.start(Layout.current(), "gmssl", labProps, out.resolve("lab.log"),
                List.of("--port-base", String.valueOf(base), "--socket-dir", socketDir.toString()),
                Duration.ofMinutes(2))) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(labProps)) {
                p.load(in);
            }
            List<X509Certificate> ca;
            try (InputStream in = Files.newInputStream(Path.of(p.getProperty("gmssl.ca.file")))) {
                ca = List.of((X509Certificate) CertificateFactory.getInstance("X.509", KeyStores.bouncyCastle())
                        .generateCertificate(in));
            }
            Path ks = Path.of(p.getProperty("gmssl.client.keystore"));
            char[] pw = p.getProperty("gmssl.client.password").toCharArray();
            TlcpCredentials client = new TlcpCredentials(KeySource.pkcs12(ks, pw, List.of("sign")).load().get(0),
                    KeySource.pkcs12(ks, pw, List.of("enc")).load().get(0));
            String host = p.getProperty("gmssl.host");
            long labPid = childPid("trustload-lab");
            List<AutoCloseable> peers = new ArrayList<>();
            try {
                List<CostRatio.Server> servers = new ArrayList<>();
                boolean measured = parts.contains("ratio") || parts.contains("saturation");
                for (String name : measured ? o.get("servers").split(",") : new String[0]) {
                    if (name.equals("lab")) {
                        servers.add(new CostRatio.Server("lab (bc server, Java)", host,
                                Integer.parseInt(p.getProperty("gmssl.tlcp.port")),
                                Integer.parseInt(p.getProperty("gmssl.mtls.port")),
                                () -> ProcCpu.processMs(labPid)));
                    } else if (name.equals("peer")) {
                        NativeTlcpPeer.Server open = peer(p, false, 2);
                        NativeTlcpPeer.Server mtls = peer(p, true, 2);
                        peers.add(open);
                        peers.add(mtls);
                        servers.add(new CostRatio.Server("native Tongsuo peer", "127.0.0.1", open.port(), mtls.port(),
                                GmsslBench::peerCpuMs));
                    }
                }
                if (Boolean.parseBoolean(o.get("jfr"))) {
                    jfr = new Recording(Configuration.getConfiguration("profile"));
                    jfr.start();
                }
                header(report, o, args, started, loadBefore);
                if (parts.contains("ratio")) {
                    CostRatio cost = new CostRatio(ca, client, Integer.parseInt(o.get("seconds")),
                            Integer.parseInt(o.get("warmup")), Integer.parseInt(o.get("threads")),
                            o.get("op").equals("cps"));
                    List<Boolean> auths = new ArrayList<>();
                    for (String a : o.get("auth").split(",")) {
                        auths.add(Boolean.parseBoolean(a.trim()));
                    }
                    cost.run(servers, suites(o.get("suites")), auths, Integer.parseInt(o.get("rounds")));
                    report.append("### Client ÷ server CPU per handshake\n\n").append(cost.ratioTable())
                            .append("\nFor a table of every protocol (`./trustload bench all`):\n\n")
                            .append(cost.familyLines())
                            .append("\nEvery cell:\n\n").append(cost.cellTable()).append('\n');
                }
                if (parts.contains("saturation") && !peers.isEmpty()) {
                    // a worker per client thread: the peer's workers serve one connection at a time, so fewer
                    // would measure its queue, not its CPU
                    int satThreads = Integer.parseInt(o.get("satThreads"));
                    NativeTlcpPeer.Server peer = peer(p, false, satThreads);
                    peers.add(peer);
                    report.append(Saturation.run(ca, client, peer.port(), p,
                            Integer.parseInt(o.get("satThreads")), Integer.parseInt(o.get("satSeconds")),
                            Integer.parseInt(o.get("warmup")), GmsslBench::peerCpuMs));
                }
            } finally {
                for (AutoCloseable c : peers) {
                    c.close();
                }
            }
            if (parts.contains("inprocess")) {
                List<Integer> threads = List.of(Integer.parseInt(o.get("threads")));
                InProcessRatio.run(report, p, ca, client, suites(o.get("inprocessSuites")), threads,
                        Integer.parseInt(o.get("seconds")), Integer.parseInt(o.get("rounds")));
            }
        } finally {
            if (jfr != null) {
                jfr.dump(out.resolve("gmssl-bench.jfr"));
                jfr.close();
            }
        }
        report.append("\nLoad average after: `").append(load()).append("`. The lab's own count: `")
                .append(labCount(out.resolve("lab.log"))).append("`.\n");
        Files.writeString(out.resolve("gmssl-bench.md"), report);
        System.out.println(report);
        if (Boolean.parseBoolean(o.get("doc"))) {
            writeDoc(root.resolve("docs/scenarios/gmssl.md"), report.toString());
        }
        System.exit(0);
    }

    private static void header(StringBuilder b, Map<String, String> o, String[] args, Instant started,
            String loadBefore) throws IOException {
        b.append("## The TLCP load mode: client and server CPU per handshake\n\n")
                .append("Measured by `./trustload bench gmssl ").append(String.join(" ", args)).append("` on ")
                .append(started).append(" (").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(Runtime.version().feature()).append("). Load average before: `").append(loadBefore)
                .append("`. ")
                .append("Client: the bc engine's raw loop in the bench JVM (")
                .append(o.get("threads")).append(" thread(s), one op = new TCP connection + full handshake")
                .append(o.get("op").equals("cps") ? " + GET /64b" : "").append(" + close), its process CPU; ")
                .append("server: the lab's JVM or the native peer's processes (two pre-forked workers each), from"
                        + " /proc, over the ")
                .append("same window. Every round runs, per case, `full`, then `minimal` paced to the rate `full`"
                        + " just ")
                .append("reached (the server's CPU per handshake compared at the same rate), then `minimal` as fast as"
                        + " it goes (")
                .append(o.get("rounds")).append(" rounds of ").append(o.get("seconds")).append(" s per cell, ")
                .append(o.get("warmup")).append(" s of warm-up first). Client certificates yes = the server requires ")
                .append("them (ECDHE suites always send them). The machine is shared: read ratios measured in one"
                        + " round, ")
                .append("not absolute rates.\n\n");
    }

    /**
     * The native peer serving both protocols on one port, as a gateway does, with {@code workers} pre-forked
     * processes; {@code mtls}: client certificates required.
     */
    private static NativeTlcpPeer.Server peer(Properties p, boolean mtls, int workers) {
        List<String> a = new ArrayList<>(List.of("--proto", "any", "--port", "0", "--workers", String.valueOf(workers),
                "--timeout-ms", "30000",
                "--sign-cert", p.getProperty("gmssl.server.sign.cert"), "--sign-key",
                p.getProperty("gmssl.server.sign.key"),
                "--enc-cert", p.getProperty("gmssl.server.enc.cert"), "--enc-key",
                p.getProperty("gmssl.server.enc.key"),
                "--ca", p.getProperty("gmssl.ca.file")));
        if (mtls) {
            a.add("--require-client-cert");
        }
        return NativeTlcpPeer.server(a);
    }

    /** CPU (ms) of every native peer server process this JVM started (workers included). */
    static long peerCpuMs() {
        long sum = 0;
        for (ProcessHandle h : ProcessHandle.current().descendants().toList()) {
            String cmd = h.info().commandLine().orElse("");
            if (cmd.contains("tlcp-peer") && cmd.contains(" server")) {
                sum += Math.max(0, ProcCpu.processMs(h.pid()));
            }
        }
        return sum;
    }

    private static long childPid(String commandPart) {
        for (ProcessHandle h : ProcessHandle.current().children().toList()) {
            if (h.info().commandLine().orElse("").contains(commandPart)) {
                return h.pid();
            }
        }
        throw new IllegalStateException("no child process running " + commandPart);
    }

    /** The lab's own count of handshakes, from the line it logs at stop (the log pump may still be writing it). */
    private static String labCount(Path log) throws InterruptedException {
        for (int i = 0; i < 50; i++) {
            try {
                var line = Files.readAllLines(log).stream().filter(l -> l.contains("handshakes completed")).findFirst();
                if (line.isPresent()) {
                    return line.get();
                }
            } catch (IOException e) {
                return "(no lab log)";
            }
            Thread.sleep(100);
        }
        return "(not logged)";
    }

    static List<TlcpSuite> suites(String list) {
        List<TlcpSuite> out = new ArrayList<>();
        for (String s : list.split(",")) {
            if (!s.isBlank()) {
                out.add(TlcpSuite.parse(s));
            }
        }
        return out;
    }

    private static void writeDoc(Path doc, String section) throws IOException {
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        String block = BEGIN + "\n\n" + section.trim() + "\n\n" + END;
        int i = text.indexOf(BEGIN);
        int j = text.indexOf(END);
        text = i >= 0 && j > i ? text.substring(0, i) + block + text.substring(j + END.length())
                : text + (text.endsWith("\n") ? "\n" : "\n\n") + block + "\n";
        Files.writeString(doc, text, StandardCharsets.UTF_8);
        System.out.println("wrote " + doc);
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
