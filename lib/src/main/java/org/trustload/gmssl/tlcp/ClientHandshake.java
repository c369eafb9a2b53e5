package org.trustload.gmssl.tlcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.math.ec.ECPoint;
import org.trustload.gmssl.TlcpSuite;

/**
 * One TLCP handshake, client side (GB/T 38636-2020), full or abbreviated when a session is resumed. ECC suites
 * SM2-encrypt the pre-master secret to the server's encryption certificate; ECDHE suites run the SM2 key
 * exchange (the server initiates, and always asks for the client's certificates). Minimal mode
 * ({@link BcTlcpClient#minimal}) skips or reuses only what the client alone computes; the messages stay complete
 * and valid, so the server does all its work: docs/elements/tlcp-client-config.md, "Client crypto".
 */
final class ClientHandshake {
    private static final int NAMED_CURVE = 3;
    /** curveSM2 (RFC 8998), the curve id TLCP ECDHE parameters carry. */
    static final int CURVE_SM2 = 41;
    /** The message of a server that closed the connection without a byte in answer to our hello. */
    static final String NO_ANSWER = "connection closed by peer without answering the hello";

    private final BcTlcpClient client;
    private final HandshakeIo io;
    private final String target;
    private final SecureRandom random = HandshakeIo.random();
    TlcpSuite suite;
    boolean resumed;
    private PeerChain server;

    ClientHandshake(BcTlcpClient client, RecordLayer records, String target) {
        this.client = client;
        this.io = new HandshakeIo(records);
        this.target = target;
    }

    void run() throws IOException {
        byte[] clientRandom = random();
        BcTlcpClient.Session offered = client.settings.sessionReuse() ? client.sessions.get(target) : null;
        io.write(HandshakeIo.CLIENT_HELLO, clientHello(clientRandom, offered));
        io.records.flush();

        HandshakeIo.Reader hello;
        try {
            hello = io.expect(HandshakeIo.SERVER_HELLO, "ServerHello");
        } catch (java.io.EOFException | java.net.SocketException e) {
            if (!io.records.nothingReceived()) {
                throw e;
            }
            // what a TLS-only OpenSSL server does with a TLCP hello ("wrong version number", no alert) - and
            // what a server shedding load does: not a proof of a protocol mismatch, so said as it is
            throw new javax.net.ssl.SSLException(NO_ANSWER, e);
        }
        int version = hello.u16();
        if (version != RecordLayer.VERSION) {
            throw TlcpAlert.send(TlcpAlert.PROTOCOL_VERSION, "protocol mismatch: the server chose version "
                    + RecordLayer.versionName(version) + ", not TLCP (0x0101)");
        }
        byte[] serverRandom = hello.bytes(32);
        byte[] sessionId = hello.vector8();
        int code = hello.u16();
        suite = Suites.of(code);
        if (suite == null || !offered(code)) {
            throw TlcpAlert.send(TlcpAlert.ILLEGAL_PARAMETER,
                    String.format("the server chose suite 0x%04x, which we did not offer", code));
        }
        if (hello.u8() != 0) {
            throw TlcpAlert.send(TlcpAlert.ILLEGAL_PARAMETER, "the server chose a compression method");
        }
        // extensions, if any, ask nothing of us: we sent none that needs an answer

        if (offered != null && sessionId.length > 0 && Arrays.equals(sessionId, offered.id())) {
            if (offered.suite() != suite) {
                throw TlcpAlert.send(TlcpAlert.ILLEGAL_PARAMETER, "the server resumed a session with another suite");
            }
            resumed = true;
            abbreviated(offered.master(), clientRandom, serverRandom);
            return;
        }

        List<byte[]> certs = PeerChain.read(io.expect(HandshakeIo.CERTIFICATE, "Certificate"));
        server = serverChain(certs);
        HandshakeIo.Reader kx = io.expect(HandshakeIo.SERVER_KEY_EXCHANGE, "ServerKeyExchange");
        boolean ecdhe = Suites.ecdhe(suite);
        ECPoint serverEphemeral = null;
        byte[] signed;
        if (ecdhe) {
            int from = kx.position();
            if (kx.u8() != NAMED_CURVE) {
                throw TlcpAlert.send(TlcpAlert.ILLEGAL_PARAMETER, "ECDHE parameters are not a named curve");
            }
            kx.u16(); // the curve: TLCP's ECDHE is always SM2 (Tongsuo ignores the id)
            byte[] point = kx.vector8();
            signed = kx.since(from);
            try {
                serverEphemeral = Sm2.point(point);
            } catch (RuntimeException e) {
                throw TlcpAlert.send(TlcpAlert.ILLEGAL_PARAMETER, "bad ECDHE point: " + e.getMessage(), e);
            }
        } else {
            signed = server.encCertificateVector();
        }
        byte[] signature = kx.vector16();
        kx.end();
        if (!client.minimal && !Sm2.verify(server.sign, concat(clientRandom, serverRandom, signed), signature)) {
            throw TlcpAlert.send(TlcpAlert.DECRYPT_ERROR,
                    "ServerKeyExchange signature does not check with the server's signing certificate");
        }

        HandshakeIo.Message m = io.read();
        boolean certificateRequested = m.type == HandshakeIo.CERTIFICATE_REQUEST;
        if (certificateRequested) {
            m.body.vector8(); // certificate types
            m.body.vector16(); // acceptable CAs: we have one pair to offer
            m.body.end();
            m = io.read();
        }
        if (m.type != HandshakeIo.SERVER_HELLO_DONE) {
            throw TlcpAlert.send(TlcpAlert.UNEXPECTED_MESSAGE, "expected ServerHelloDone, got message " + m.type);
        }
        m.body.end();

        DoubleCertificate own = client.own;
        if (certificateRequested) {
            io.write(HandshakeIo.CERTIFICATE, own != null ? own.certificateMessage() : new HandshakeIo.Writer().u24(0));
        }
        byte[] preMaster;
        HandshakeIo.Writer cke = new HandshakeIo.Writer();
        if (ecdhe) {
            if (own == null) {
                throw TlcpAlert.send(TlcpAlert.HANDSHAKE_FAILURE, suite + " needs the client's encryption key pair");
            }
            Sm2.EphemeralKey mine;
            org.bouncycastle.math.ec.ECPoint staticPart = null;
            if (client.minimal) {
                // the one ephemeral key pair: [t]P of this server's encryption key is the same every time
                mine = client.ephemeral(random);
                ByteBuffer key = ByteBuffer.wrap(server.der.get(1));
                staticPart = client.staticParts.get(key);
                if (staticPart == null) {
                    staticPart = server.enc.q.multiply(Sm2.exchangeScalar(own.enc, mine)).normalize();
                    BcTlcpClient.remember(client.staticParts, key, staticPart);
                }
            } else {
                mine = Sm2.ephemeral(random);
            }
            preMaster = Sm2.exchange(false, own.enc, mine, server.enc, staticPart, serverEphemeral,
                    KeySchedule.MASTER_LENGTH);
            cke.u8(NAMED_CURVE).u16(CURVE_SM2).vector8(mine.point.getEncoded(false));
        } else {
            byte[][] pm = client.minimal ? reusedPreMaster() : newPreMaster(server.enc);
            preMaster = pm[0];
            cke.vector16(pm[1]);
        }
        io.write(HandshakeIo.CLIENT_KEY_EXCHANGE, cke);
        if (certificateRequested && own != null) {
            io.write(HandshakeIo.CERTIFICATE_VERIFY, own.certificateVerify(io.transcriptHash(), random));
        }
        byte[] master = KeySchedule.master(preMaster, clientRandom, serverRandom);
        RecordCipher[] c = KeySchedule.ciphers(master, clientRandom, serverRandom, Suites.gcm(suite), true, random);
        io.records.changeWriteCipher(c[0]);
        io.write(HandshakeIo.FINISHED,
                new HandshakeIo.Writer().bytes(Prf.finished(master, Prf.CLIENT_FINISHED, io.transcriptHash())));
        io.records.flush();

        io.expectChangeCipherSpec();
        io.records.changeReadCipher(c[1]);
        byte[] expected = Prf.finished(master, Prf.SERVER_FINISHED, io.transcriptHash());
        checkFinished(io.expect(HandshakeIo.FINISHED, "Finished"), expected);
        if (client.settings.sessionReuse() && sessionId.length > 0) {
            BcTlcpClient.remember(client.sessions, target, new BcTlcpClient.Session(sessionId, master, suite));
        }
    }

    private void abbreviated(byte[] master, byte[] clientRandom, byte[] serverRandom) throws IOException {
        RecordCipher[] c = KeySchedule.ciphers(master, clientRandom, serverRandom, Suites.gcm(suite), true, random);
        io.expectChangeCipherSpec();
        io.records.changeReadCipher(c[1]);
        byte[] expected = Prf.finished(master, Prf.SERVER_FINISHED, io.transcriptHash());
        checkFinished(io.expect(HandshakeIo.FINISHED, "Finished"), expected);
        io.records.changeWriteCipher(c[0]);
        io.write(HandshakeIo.FINISHED,
                new HandshakeIo.Writer().bytes(Prf.finished(master, Prf.CLIENT_FINISHED, io.transcriptHash())));
        io.records.flush();
    }

    static void checkFinished(HandshakeIo.Reader finished, byte[] expected) throws TlcpAlert {
        byte[] got = finished.bytes(finished.remaining());
        if (!java.security.MessageDigest.isEqual(got, expected)) {
            throw TlcpAlert.send(TlcpAlert.DECRYPT_ERROR,
                    "the peer's Finished does not check (different keys or transcript)");
        }
    }

    /** Full mode: the chain validated now; minimal: validated the first time this Certificate message is seen. */
    private PeerChain serverChain(List<byte[]> certs) throws TlcpAlert {
        if (!client.minimal) {
            return PeerChain.check(certs, client.trust, true, false);
        }
        ByteBuffer key = key(certs);
        PeerChain known = client.chains.get(key);
        if (known == null) {
            known = PeerChain.check(certs, client.trust, true, true);
            BcTlcpClient.remember(client.chains, key, known);
        }
        return known;
    }

    private static ByteBuffer key(List<byte[]> certs) {
        int n = 0;
        for (byte[] c : certs) {
            n += 4 + c.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] c : certs) {
            b.putInt(c.length).put(c);
        }
        b.flip();
        return b;
    }

    private byte[][] newPreMaster(Sm2.PublicKey encKey) {
        byte[] pms = new byte[KeySchedule.MASTER_LENGTH];
        random.nextBytes(pms);
        pms[0] = (byte) (RecordLayer.VERSION >>> 8);
        pms[1] = (byte) RecordLayer.VERSION;
        return new byte[][] {pms, Sm2.encrypt(encKey, pms, random)};
    }

    /** Minimal mode: one pre-master secret and its encryption per server encryption certificate. */
    private byte[][] reusedPreMaster() {
        ByteBuffer key = ByteBuffer.wrap(server.der.get(1));
        byte[][] pm = client.preMasters.get(key);
        if (pm == null) {
            pm = newPreMaster(server.enc);
            BcTlcpClient.remember(client.preMasters, key, pm);
        }
        return pm;
    }

    private boolean offered(int code) {
        for (int s : client.suites) {
            if (s == code) {
                return true;
            }
        }
        return false;
    }

    private HandshakeIo.Writer clientHello(byte[] clientRandom, BcTlcpClient.Session offered) {
        HandshakeIo.Writer w = new HandshakeIo.Writer().u16(RecordLayer.VERSION).bytes(clientRandom)
                .vector8(offered == null ? new byte[0] : offered.id());
        w.u16(client.suites.length * 2);
        for (int s : client.suites) {
            w.u16(s);
        }
        w.u8(1).u8(0); // compression: null only
        String sni = client.settings.serverName();
        if (sni != null && !sni.isEmpty()) {
            byte[] name = sni.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            // extensions: server_name (0) with one host_name entry
            w.u16(2 + 2 + 2 + 1 + 2 + name.length).u16(0).u16(2 + 1 + 2 + name.length).u16(1 + 2 + name.length)
                    .u8(0).vector16(name);
        }
        return w;
    }

    private byte[] random() {
        byte[] r = new byte[32];
        random.nextBytes(r);
        int t = (int) (System.currentTimeMillis() / 1000);
        r[0] = (byte) (t >>> 24);
        r[1] = (byte) (t >>> 16);
        r[2] = (byte) (t >>> 8);
        r[3] = (byte) t;
        return r;
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }
}
