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
import org.trustload.gmssl.TlcpPageServer;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabFiles;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.LabService;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.pki.TestPki;

/**
 * The {@code gmssl} lab service: a GM-SSL HTTPS server on 127.0.0.1 with SM2 double certificates
 * (an SM2 test PKI: one CA, server and client sign+enc pairs, an expired client pair), serving
 * {@code /64b}, {@code /1k} and {@code /1m} with HTTP/1.1 keep-alive ({@link TlcpPageServer}):
 * <ul>
 *   <li>base+{@value #TLCP_OFFSET}: TLCP (engine {@code bgm}), all four suites, no client certificate required;</li>
 *   <li>base+{@value #TLS13_OFFSET}: TLS 1.3 with the RFC 8998 suites (engine {@code bgm});</li>
 *   <li>base+{@value #TLCP_MTLS_OFFSET}: TLCP requiring a client certificate pair;</li>
 *   <li>base+{@value #TONGSUO_TLS13_OFFSET}: TLS 1.3 with the RFC 8998 suites served by the {@code tongsuo}
 *   engine (native Tongsuo), where it can run (Linux x86_64); elsewhere the listener is left out
 *   and {@code gmssl.tongsuo.tls13.port} is not written.</li>
 * </ul>
 */
public final class GmsslLabService implements LabService {
    /** Port offset of the TLCP listener. */
    public static final int TLCP_OFFSET = 8700;
    /** Port offset of the TLS 1.3 SM listener (bgm). */
    public static final int TLS13_OFFSET = 8701;
    /** Port offset of the TLCP listener that requires client authentication. */
    public static final int TLCP_MTLS_OFFSET = 8703;
    /** Port offset of the TLS 1.3 SM listener served by the tongsuo engine. */
    public static final int TONGSUO_TLS13_OFFSET = 8702;
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
        TlcpEngine bgm = TlcpEngines.get("bgm");
        bgm.checkAvailable();
        TlcpCredentials server = new TlcpCredentials(pki.tlcpKey(TestPki.TLCP_SERVER, "sign"),
                pki.tlcpKey(TestPki.TLCP_SERVER, "enc"));
        TlcpServerSettings base = new TlcpServerSettings().withCredentials(server)
                .withTrustAnchors(pki.caCertificates()).withHandshakeTimeoutMillis(10_000);
        listen(ctx, TLCP_OFFSET, bgm, base.withProtocol(TlcpProtocol.TLCP));
        listen(ctx, TLS13_OFFSET, bgm, base.withProtocol(TlcpProtocol.TLS13));
        listen(ctx, TLCP_MTLS_OFFSET, bgm, base.withProtocol(TlcpProtocol.TLCP)
                .withClientAuth(TlcpServerSettings.ClientAuth.NEED));
        boolean tongsuo = listenTongsuo(ctx, base.withProtocol(TlcpProtocol.TLS13));

        String d = dir.toAbsolutePath().toString() + "/";
        props.put("gmssl.host", LabContext.HOST);
        props.put("gmssl.tlcp.port", String.valueOf(ctx.port(TLCP_OFFSET)));
        props.put("gmssl.tls13.port", String.valueOf(ctx.port(TLS13_OFFSET)));
        props.put("gmssl.tlcp.mtls.port", String.valueOf(ctx.port(TLCP_MTLS_OFFSET)));
        if (tongsuo) {
            props.put("gmssl.tongsuo.tls13.port", String.valueOf(ctx.port(TONGSUO_TLS13_OFFSET)));
        }
        props.put("gmssl.ca.file", d + "ca-1.pem");
        // The client stores go to plans under a password random per start, not TestPki's fixed one.
        String password = LabSecrets.generate();
        for (String store : new String[] {"tlcp-client", "tlcp-client-expired"}) {
            LabSecrets.reexport(KeyStores.open(KeySource.Kind.PKCS12, dir.resolve(store + ".p12"), TestPki.PASSWORD.toCharArray()),
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

    private void listen(LabContext ctx, int offset, TlcpEngine engine, TlcpServerSettings settings) throws Exception {
        int port = ctx.port(offset);
        try {
            servers.add(TlcpPageServer.start(engine.newServer(settings), new InetSocketAddress(ctx.bindAddress(), port),
                    IDLE_TIMEOUT_MILLIS));
        } catch (TlcpException e) {
            if (e.getCause() instanceof BindException) {
                throw new EndpointInUseException(LabContext.HOST + ":" + port + " (gmssl)", e.getCause());
            }
            throw e;
        }
    }

    /** The tongsuo TLS 1.3 listener; false (and a warning) where the native engine cannot run. */
    private boolean listenTongsuo(LabContext ctx, TlcpServerSettings settings) throws Exception {
        TlcpEngine tongsuo = TlcpEngines.get("tongsuo");
        try {
            tongsuo.checkAvailable();
        } catch (TlcpException e) {
            System.err.println("trustload-lab: gmssl: no tongsuo TLS 1.3 listener: " + e.getMessage() + " (" + e.detail() + ")");
            return false;
        }
        listen(ctx, TONGSUO_TLS13_OFFSET, tongsuo, settings);
        return true;
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
