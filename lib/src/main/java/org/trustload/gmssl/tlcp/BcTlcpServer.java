package org.trustload.gmssl.tlcp;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.common.Closeables;
import org.trustload.gmssl.Sm2TrustManager;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpErrors;
import org.trustload.gmssl.TlcpException;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpServer;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;

/** The {@code bc} engine's TLCP server: thread-safe; sessions kept for resumption (at most {@value #SESSIONS}). */
final class BcTlcpServer implements TlcpServer {
    static final int SESSIONS = 10_000;

    final TlcpServerSettings settings;
    final List<TlcpSuite> suites;
    final DoubleCertificate own;
    final byte[] encCertificateVector;
    final Sm2TrustManager trust;
    private final Map<ByteBuffer, Session> sessions = new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Session> eldest) {
            return size() > SESSIONS;
        }
    };

    BcTlcpServer(TlcpServerSettings settings) throws TlcpException {
        this.settings = settings;
        this.suites = settings.suites();
        this.own = DoubleCertificate.of(settings.credentials());
        byte[] enc = own.certificates.get(1);
        this.encCertificateVector = new byte[3 + enc.length];
        encCertificateVector[0] = (byte) (enc.length >>> 16);
        encCertificateVector[1] = (byte) (enc.length >>> 8);
        encCertificateVector[2] = (byte) enc.length;
        System.arraycopy(enc, 0, encCertificateVector, 3, enc.length);
        this.trust = new Sm2TrustManager(settings.trustAnchors(), false);
    }

    @Override
    public TlcpProtocol protocol() {
        return TlcpProtocol.TLCP;
    }

    @Override
    public TlcpConnection accept(Socket socket, byte[] consumed) throws TlcpException {
        long t0 = System.nanoTime();
        RecordLayer records = null;
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        try {
            socket.setSoTimeout(settings.handshakeTimeoutMillis());
            InputStream raw = socket.getInputStream();
            InputStream in = consumed.length == 0 ? raw
                    : new SequenceInputStream(new ByteArrayInputStream(consumed), raw);
            records = new RecordLayer(new BufferedInputStream(in, 8192), socket.getOutputStream());
            ServerHandshake h = new ServerHandshake(this, records);
            h.run();
            return new BcConnection(socket, records, h.suite.name(), h.resumed, 0, System.nanoTime() - t0);
        } catch (IOException | RuntimeException e) {
            if (records != null && e instanceof TlcpAlert && !((TlcpAlert) e).received) {
                records.sendAlert(((TlcpAlert) e).description);
            }
            Closeables.closeQuietly(socket);
            throw TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, peer, e);
        }
    }

    Session session(byte[] id) {
        synchronized (sessions) {
            return sessions.get(ByteBuffer.wrap(id));
        }
    }

    void remember(byte[] id, Session s) {
        synchronized (sessions) {
            sessions.put(ByteBuffer.wrap(id), s);
        }
    }

    @Override
    public void close() {
        synchronized (sessions) {
            sessions.clear();
        }
    }

    /** A session that may be resumed. */
    record Session(byte[] master, TlcpSuite suite) {
    }
}
