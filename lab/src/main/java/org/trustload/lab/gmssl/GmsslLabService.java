package org.trustload.lab.gmssl;

import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngine;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpException;
import org.trustload.labkit.gmssl.TlcpPageServer;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServer;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabFiles;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.LabService;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.labkit.pki.TestPki;

/**
 * The {@code gmssl} lab service: a GM-SSL gateway on 127.0.0.1 with SM2 double certificates (an SM2
 * test PKI: one CA, server and client sign+enc pairs, an expired client pair), serving {@code /64b},
 * {@code /1k} and {@code /1m} with HTTP/1.1 keep-alive ({@link TlcpPageServer}). Like a Tongsuo gateway
 * with {@code enable_ntls}, each port serves TLCP and TLS 1.3 SM: the client's hello chooses.
 * <ul>
 *   <li>base+{@value #PORT_OFFSET}: TLCP (engine {@code bc}, all four suites) and TLS 1.3 with the RFC 8998
 *   suites (engine {@code tongsuo} where its native library runs, else {@code bgm} on Java 17 to 21, else
 *   none: TLCP only, with a warning); no client certificate required;</li>
 *   <li>base+{@value #MTLS_OFFSET}: the same, requiring a client certificate (pair).</li>
 * </ul>
 * {@code gmssl.tls13.engine} says which engine serves TLS 1.3 ({@code none} when none can run here).
 */
public final class GmsslLabService implements LabService {
    /** Port offset of the gateway port (TLCP and TLS 1.3). */
    public static final int PORT_OFFSET = 8700;
    /** Port offset of the gateway port that requires client certificates. */
    public static final int MTLS_OFFSET = 8703;
    /** How long an idle kept-alive connection stays open (the max-connections plan holds them idle). */
    static final int IDLE_TIMEOUT_MILLIS = 600_000;

    private final List<TlcpPageServer> servers = new ArrayList<>();
    private final Map<String, String> props = new LinkedHashMap<>();
    private Path pkiDir;

    @Override
    public String name() {
        return "gmssl";
    }

    @Override
    public void start(LabContext ctx) throws Exception {
        Path dir = ctx.socketDir().resolve("gmssl-pki");
        pkiDir = dir;
        TestPki pki = TestPki.generate(new TestPki.Spec().withKeyType(TestPki.KeyType.SM2).withCas(1).withUsers(0)
                .withExpiredCount(0).withCrlBaseUrl(null), dir);
        TlcpCredentials server = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_SERVER, "sign"),
                pki.tlcpKey(TestPki.TLCP_SERVER, "enc"));
        TlcpServerSettings base = new TlcpServerSettings().withCredentials(server)
                .withTrustAnchors(pki.caCertificates()).withHandshakeTimeoutMillis(10_000);
        TlcpEngine tlcp = TlcpEngines.forProtocol(TlcpProtocol.TLCP);
        TlcpEngine tls13 = tls13Engine();
        for (TlcpServerSettings.ClientAuth auth : List.of(TlcpServerSettings.ClientAuth.NONE,
                TlcpServerSettings.ClientAuth.NEED)) {
            TlcpServerSettings s = base.withClientAuth(auth);
            List<TlcpServer> both = new ArrayList<>();
            both.add(tlcp.newServer(s.withProtocol(TlcpProtocol.TLCP)));
            if (tls13 != null) {
                both.add(tls13.newServer(s.withProtocol(TlcpProtocol.TLS13)));
            }
            listen(ctx, auth == TlcpServerSettings.ClientAuth.NONE ? PORT_OFFSET : MTLS_OFFSET, both);
        }

        String d = dir.toAbsolutePath().toString() + "/";
        String port = String.valueOf(ctx.port(PORT_OFFSET));
        String mtls = String.valueOf(ctx.port(MTLS_OFFSET));
        props.put("gmssl.host", ctx.host());
        // one port for both protocols; the per-protocol names stay for plans and scripts that use them
        props.put("gmssl.tlcp.port", port);
        props.put("gmssl.tls13.port", port);
        props.put("gmssl.mtls.port", mtls);
        props.put("gmssl.tlcp.mtls.port", mtls);
        props.put("gmssl.tls13.engine", tls13 == null ? "none" : tls13.name());
        props.put("gmssl.ca.file", d + "ca-1.pem");
        // The client stores go to plans under a password random per start, not TestPki's fixed one.
        String password = LabSecrets.generate();
        for (String store : new String[] {"tlcp-client", "tlcp-client-expired"}) {
            LabSecrets.reexport(KeyStores.open(KeySource.Kind.PKCS12, dir.resolve(store + ".p12"),
                    TestPki.PASSWORD.toCharArray()),
                    TestPki.PASSWORD.toCharArray(), dir.resolve("lab-" + store + ".p12"), password.toCharArray());
        }
        props.put("gmssl.client.keystore", d + "lab-tlcp-client.p12");
        props.put("gmssl.client.password", password);
        props.put("gmssl.client.sign.alias", "sign");
        props.put("gmssl.client.enc.alias", "enc");
        props.put("gmssl.client.expired.keystore", d + "lab-tlcp-client-expired.p12");
        for (String party : new String[] {"client", "server"}) {
            for (String use : new String[] {"sign", "enc"}) {
                props.put("gmssl." + party + "." + use + ".cert", d + "tlcp-" + party + "-" + use + ".pem");
                props.put("gmssl." + party + "." + use + ".key", d + "tlcp-" + party + "-" + use + ".key");
            }
        }
        props.put("gmssl.pages", "/64b,/1k,/1m");
    }

    /** The engine that serves TLS 1.3 here, or null (and a warning) where none can run. */
    private static TlcpEngine tls13Engine() {
        try {
            return TlcpEngines.forProtocol(TlcpProtocol.TLS13);
        } catch (TlcpException e) {
            System.err.println("trustload-lab: gmssl: TLCP only, no TLS 1.3 SM: " + e.getMessage() + " ("
                    + e.detail() + ")");
            return null;
        }
    }

    private void listen(LabContext ctx, int offset, List<TlcpServer> protocols) throws Exception {
        int port = ctx.port(offset);
        try {
            servers.add(TlcpPageServer.start(protocols, new InetSocketAddress(ctx.bindAddress(), port),
                    IDLE_TIMEOUT_MILLIS));
        } catch (TlcpException e) {
            if (e.getCause() instanceof BindException) {
                throw new EndpointInUseException(ctx.authority(port) + " (gmssl)", e.getCause());
            }
            throw e;
        }
    }

    /** Handshakes completed and failed on every port since the start (tests and benches check 0 failures). */
    public int[] handshakes() {
        return new int[] {servers.stream().mapToInt(TlcpPageServer::completedHandshakes).sum(),
            servers.stream().mapToInt(TlcpPageServer::handshakeFailures).sum()};
    }

    /** Connections currently open on every listener (tests check that held connections are released). */
    public int openConnections() {
        return servers.stream().mapToInt(TlcpPageServer::openConnections).sum();
    }

    @Override
    public Map<String, String> properties() {
        return props;
    }

    @Override
    public void close() {
        if (!servers.isEmpty()) {
            // the gateway's log of its work: benches and tests compare it with what the clients counted
            int[] h = handshakes();
            System.err.println("trustload-lab: gmssl: " + h[0] + " handshakes completed, " + h[1] + " failed");
        }
        for (TlcpPageServer s : servers) {
            s.close();
        }
        servers.clear();
        if (pkiDir != null) {
            try {
                LabFiles.deleteTree(pkiDir);
            } catch (java.io.IOException e) {
                System.err.println("trustload-lab: cannot remove " + pkiDir + ": " + e);
            }
        }
    }
}
