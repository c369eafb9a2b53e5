package org.trustload.gmssl.tlcp;

import java.io.IOException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.math.ec.ECPoint;
import org.trustload.gmssl.TlcpServerSettings;
import org.trustload.gmssl.TlcpSuite;

/**
 * One TLCP handshake, server side: the counterpart of {@link ClientHandshake}, with the server's
 * full work on every handshake (ServerKeyExchange signed, the pre-master secret decrypted or the SM2
 * key exchange computed with a new ephemeral key, the client's chain validated and its
 * CertificateVerify checked), and resumption by session id from {@link BcTlcpServer}'s cache. The
 * ECDHE suites always ask for the client's certificates (their key exchange needs its encryption
 * key), as Tongsuo does.
 */
final class ServerHandshake {
    private static final int RENEGOTIATION_INFO = 0xff01;
    private static final int SCSV = 0x00ff;

    private final BcTlcpServer server;
    private final HandshakeIo io;
    private final SecureRandom random = HandshakeIo.random();
    TlcpSuite suite;
    boolean resumed;

    ServerHandshake(BcTlcpServer server, RecordLayer records) {
        this.server = server;
        this.io = new HandshakeIo(records);
    }

    void run() throws IOException {
        HandshakeIo.Reader hello = io.expect(HandshakeIo.CLIENT_HELLO, "ClientHello");
        int version = hello.u16();
        if (version != RecordLayer.VERSION) {
            throw TlcpAlert.send(TlcpAlert.PROTOCOL_VERSION, "protocol mismatch: the client offered version "
                    + RecordLayer.versionName(version) + ", not TLCP (0x0101)");
        }
        byte[] clientRandom = hello.bytes(32);
        byte[] offeredId = hello.vector8();
        HandshakeIo.Reader suites = new HandshakeIo.Reader(hello.vector16());
        boolean secureRenegotiation = false;
        java.util.Set<Integer> offered = new java.util.HashSet<>();
        while (suites.remaining() > 1) {
            int c = suites.u16();
            offered.add(c);
            secureRenegotiation |= c == SCSV;
        }
        hello.vector8(); // compression methods: we use null, which every client offers
        if (hello.remaining() > 0) {
            HandshakeIo.Reader ext = new HandshakeIo.Reader(hello.vector16());
            while (ext.remaining() > 0) {
                int type = ext.u16();
                ext.vector16();
                secureRenegotiation |= type == RENEGOTIATION_INFO;
            }
        }
        suite = null;
        for (TlcpSuite s : server.suites) {
            if (offered.contains(Suites.code(s))) {
                suite = s;
                break;
            }
        }
        if (suite == null) {
            throw TlcpAlert.send(TlcpAlert.HANDSHAKE_FAILURE, "no common cipher suite (the client offered "
                    + offered.size() + " suites, none of " + server.suites + ")");
        }
        byte[] serverRandom = new byte[32];
        random.nextBytes(serverRandom);
        BcTlcpServer.Session session = offeredId.length == 0 ? null : server.session(offeredId);
        if (session != null && session.suite() == suite) {
            resumed = true;
            io.write(HandshakeIo.SERVER_HELLO, serverHello(serverRandom, offeredId, secureRenegotiation));
            RecordCipher[] c = KeySchedule.ciphers(session.master(), clientRandom, serverRandom,
                    Suites.gcm(suite), false, random);
            io.records.changeWriteCipher(c[1]);
            io.write(HandshakeIo.FINISHED, new HandshakeIo.Writer()
                    .bytes(Prf.finished(session.master(), Prf.SERVER_FINISHED, io.transcriptHash())));
            io.records.flush();
            io.expectChangeCipherSpec();
            io.records.changeReadCipher(c[0]);
            byte[] expected = Prf.finished(session.master(), Prf.CLIENT_FINISHED, io.transcriptHash());
            ClientHandshake.checkFinished(io.expect(HandshakeIo.FINISHED, "Finished"), expected);
            return;
        }

        byte[] sessionId = new byte[32];
        random.nextBytes(sessionId);
        DoubleCertificate own = server.own;
        io.write(HandshakeIo.SERVER_HELLO, serverHello(serverRandom, sessionId, secureRenegotiation));
        io.write(HandshakeIo.CERTIFICATE, own.certificateMessage());
        boolean ecdhe = Suites.ecdhe(suite);
        Sm2.EphemeralKey ephemeral = null;
        HandshakeIo.Writer kx = new HandshakeIo.Writer();
        byte[] signed;
        if (ecdhe) {
            ephemeral = Sm2.ephemeral(random);
            kx.u8(3).u16(ClientHandshake.CURVE_SM2).vector8(ephemeral.point.getEncoded(false));
            signed = kx.body();
        } else {
            signed = server.encCertificateVector;
        }
        kx.vector16(Sm2.sign(own.sign, ClientHandshake.concat(clientRandom, serverRandom, signed), random));
        io.write(HandshakeIo.SERVER_KEY_EXCHANGE, kx);
        boolean ask = ecdhe || server.settings.clientAuth() != TlcpServerSettings.ClientAuth.NONE;
        if (ask) {
            io.write(HandshakeIo.CERTIFICATE_REQUEST, certificateRequest());
        }
        io.write(HandshakeIo.SERVER_HELLO_DONE, new HandshakeIo.Writer());
        io.records.flush();

        PeerChain client = null;
        if (ask) {
            List<byte[]> certs = PeerChain.read(io.expect(HandshakeIo.CERTIFICATE, "Certificate"));
            if (certs.isEmpty()) {
                if (ecdhe || server.settings.clientAuth() == TlcpServerSettings.ClientAuth.NEED) {
                    throw TlcpAlert.send(TlcpAlert.HANDSHAKE_FAILURE, "the client sent no certificate"
                            + (ecdhe ? " (" + suite + " needs its sign and enc certificates)" : ""));
                }
            } else {
                client = PeerChain.check(certs, server.trust, false, false);
            }
        }
        HandshakeIo.Reader cke = io.expect(HandshakeIo.CLIENT_KEY_EXCHANGE, "ClientKeyExchange");
        byte[] preMaster;
        if (ecdhe) {
            cke.u8();
            cke.u16();
            ECPoint clientEphemeral;
            try {
                clientEphemeral = Sm2.point(cke.vector8());
            } catch (RuntimeException e) {
                throw TlcpAlert.send(TlcpAlert.ILLEGAL_PARAMETER, "bad ECDHE point: " + e.getMessage(), e);
            }
            cke.end();
            preMaster = Sm2.exchange(true, own.enc, ephemeral, client.enc, clientEphemeral, KeySchedule.MASTER_LENGTH);
        } else {
            byte[] encrypted = cke.vector16();
            cke.end();
            try {
                preMaster = Sm2.decrypt(own.enc, encrypted);
            } catch (RuntimeException e) {
                throw TlcpAlert.send(TlcpAlert.DECRYPT_ERROR,
                        "cannot decrypt the pre-master secret: " + e.getMessage(), e);
            }
            if (preMaster.length != KeySchedule.MASTER_LENGTH) {
                throw TlcpAlert.send(TlcpAlert.DECRYPT_ERROR, "pre-master secret of " + preMaster.length + " bytes");
            }
        }
        if (client != null) {
            byte[] hash = io.transcriptHash();
            HandshakeIo.Reader cv = io.expect(HandshakeIo.CERTIFICATE_VERIFY, "CertificateVerify");
            byte[] signature = cv.vector16();
            cv.end();
            if (!Sm2.verify(client.sign, hash, signature)) {
                throw TlcpAlert.send(TlcpAlert.DECRYPT_ERROR,
                        "CertificateVerify does not check with the client's signing certificate");
            }
        }
        byte[] master = KeySchedule.master(preMaster, clientRandom, serverRandom);
        RecordCipher[] c = KeySchedule.ciphers(master, clientRandom, serverRandom, Suites.gcm(suite), false, random);
        io.expectChangeCipherSpec();
        io.records.changeReadCipher(c[0]);
        byte[] expected = Prf.finished(master, Prf.CLIENT_FINISHED, io.transcriptHash());
        ClientHandshake.checkFinished(io.expect(HandshakeIo.FINISHED, "Finished"), expected);
        io.records.changeWriteCipher(c[1]);
        // remembered before our Finished leaves: a client that resumes at once must find it (BcEngineTest)
        server.remember(sessionId, new BcTlcpServer.Session(master, suite));
        io.write(HandshakeIo.FINISHED,
                new HandshakeIo.Writer().bytes(Prf.finished(master, Prf.SERVER_FINISHED, io.transcriptHash())));
        io.records.flush();
    }

    private HandshakeIo.Writer serverHello(byte[] serverRandom, byte[] sessionId, boolean secureRenegotiation) {
        HandshakeIo.Writer w = new HandshakeIo.Writer().u16(RecordLayer.VERSION).bytes(serverRandom).vector8(sessionId)
                .u16(Suites.code(suite)).u8(0);
        if (secureRenegotiation) {
            // RFC 5746: an empty renegotiation_info tells the client we never renegotiate insecurely
            w.u16(5).u16(RENEGOTIATION_INFO).u16(1).u8(0);
        }
        return w;
    }

    private HandshakeIo.Writer certificateRequest() {
        // rsa_sign, ecdsa_sign (as Tongsuo)
        HandshakeIo.Writer w = new HandshakeIo.Writer().vector8(new byte[] {1, 64});
        int at = w.position();
        w.u16(0);
        int total = 0;
        for (X509Certificate ca : server.settings.trustAnchors()) {
            byte[] dn = ca.getSubjectX500Principal().getEncoded();
            w.vector16(dn);
            total += 2 + dn.length;
        }
        w.patch16(at, total);
        return w;
    }
}
