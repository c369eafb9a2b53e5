package org.trustload.gmssl.tlcp;

import static org.trustload.common.Closeables.closeQuietly;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.trustload.gmssl.AbstractTlcpConnection;
import org.trustload.gmssl.Sm2TrustManager;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientCrypto;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpErrors;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpSuite;

/**
 * The {@code bc} engine's TLCP client: thread-safe, one per test. What it keeps between handshakes:
 * the sessions to resume (session reuse on), and in {@link TlcpClientCrypto#MINIMAL} mode the server
 * chains already checked, one encrypted pre-master secret per server encryption key and one
 * ephemeral key pair (see {@link ClientHandshake}).
 */
final class BcTlcpClient implements TlcpClient {
    /** Server chains, pre-master secrets and sessions kept at most (a load test talks to a few servers). */
    static final int REMEMBERED = 64;

    final TlcpClientSettings settings;
    final int[] suites;
    final Sm2TrustManager trust;
    final DoubleCertificate own;
    final boolean minimal;
    /** Minimal mode: checked server chains by their Certificate message. */
    final Map<ByteBuffer, PeerChain> chains = new ConcurrentHashMap<>();
    /** Minimal mode, ECC suites: [pre-master secret, its encryption] by server encryption key. */
    final Map<ByteBuffer, byte[][]> preMasters = new ConcurrentHashMap<>();
    /** Minimal mode, ECDHE suites: [t]P of each server encryption key for the one ephemeral key pair. */
    final Map<ByteBuffer, org.bouncycastle.math.ec.ECPoint> staticParts = new ConcurrentHashMap<>();
    /** Session reuse: the last session by host:port. */
    final Map<String, Session> sessions = new ConcurrentHashMap<>();
    /** Minimal mode, ECDHE suites: the one ephemeral key pair. */
    private volatile Sm2.EphemeralKey ephemeral;

    BcTlcpClient(TlcpClientSettings settings) throws TlcpException {
        this.settings = settings;
        List<TlcpSuite> s = settings.suites();
        this.suites = new int[s.size()];
        for (int i = 0; i < suites.length; i++) {
            suites[i] = Suites.code(s.get(i));
        }
        this.trust = new Sm2TrustManager(settings.trustAnchors(), false);
        this.own = settings.credentials() == null ? null : DoubleCertificate.of(settings.credentials());
        this.minimal = settings.clientCrypto() == TlcpClientCrypto.MINIMAL;
    }

    @Override
    public TlcpClientSettings settings() {
        return settings;
    }

    @Override
    public TlcpConnection connect(String host, int port) throws TlcpException {
        long t0 = System.nanoTime();
        Socket tcp = AbstractTlcpConnection.connectTcp(host, port, settings.connectTimeoutMillis());
        long t1 = System.nanoTime();
        RecordLayer records = null;
        try {
            tcp.setSoTimeout(settings.readTimeoutMillis());
            records = new RecordLayer(new BufferedInputStream(tcp.getInputStream(), 8192),
                    tcp.getOutputStream()); // the record layer buffers a whole flight itself
            ClientHandshake h = new ClientHandshake(this, records, host + ":" + port);
            h.run();
            long t2 = System.nanoTime();
            return new BcConnection(tcp, records, h.suite.name(), h.resumed, t1 - t0, t2 - t1);
        } catch (IOException | RuntimeException e) {
            if (records != null && e instanceof TlcpAlert && !((TlcpAlert) e).received) {
                records.sendAlert(((TlcpAlert) e).description);
            }
            closeQuietly(tcp);
            throw TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, host + ":" + port, e);
        }
    }

    /** Minimal mode's one ephemeral key pair, made on first use. */
    Sm2.EphemeralKey ephemeral(SecureRandom random) {
        Sm2.EphemeralKey e = ephemeral;
        if (e == null) {
            synchronized (this) {
                // one for every thread: the [t]P kept per server belongs to this very key pair
                e = ephemeral;
                if (e == null) {
                    e = Sm2.ephemeral(random);
                    ephemeral = e;
                }
            }
        }
        return e;
    }

    static <K, V> void remember(Map<K, V> map, K key, V value) {
        if (map.size() >= REMEMBERED) {
            map.clear();
        }
        map.put(key, value);
    }

    @Override
    public void close() {
        chains.clear();
        preMasters.clear();
        staticParts.clear();
        sessions.clear();
    }

    /** A session to resume: its id, master secret and suite. */
    record Session(byte[] id, byte[] master, TlcpSuite suite) {
    }
}
