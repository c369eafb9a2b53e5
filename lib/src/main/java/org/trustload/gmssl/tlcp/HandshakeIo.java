package org.trustload.gmssl.tlcp;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.crypto.digests.SM3Digest;

/**
 * Handshake messages over a {@link RecordLayer}: reads whole messages (several per record or one
 * across records), writes them, and keeps the transcript's running SM3 hash that CertificateVerify
 * and Finished sign.
 */
final class HandshakeIo {
    static final int CLIENT_HELLO = 1;
    static final int SERVER_HELLO = 2;
    static final int CERTIFICATE = 11;
    static final int SERVER_KEY_EXCHANGE = 12;
    static final int CERTIFICATE_REQUEST = 13;
    static final int SERVER_HELLO_DONE = 14;
    static final int CERTIFICATE_VERIFY = 15;
    static final int CLIENT_KEY_EXCHANGE = 16;
    static final int FINISHED = 20;
    private static final int MAX_MESSAGE = 256 * 1024;

    final RecordLayer records;
    private final SM3Digest transcript = new SM3Digest();
    private byte[] buffer = new byte[4096];
    private int start;
    private int end;

    HandshakeIo(RecordLayer records) {
        this.records = records;
    }

    /** A thread's random source (a DRBG per thread: no lock shared between handshakes). */
    static SecureRandom random() {
        return RANDOM.get();
    }

    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(() -> {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (java.security.NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    });

    /** A received handshake message. */
    static final class Message {
        final int type;
        final Reader body;

        Message(int type, Reader body) {
            this.type = type;
            this.body = body;
        }
    }

    /** SM3 of the transcript so far. */
    byte[] transcriptHash() {
        SM3Digest d = new SM3Digest(transcript);
        byte[] h = new byte[32];
        d.doFinal(h, 0);
        return h;
    }

    /**
     * The next handshake message, added to the transcript. A ChangeCipherSpec in between is returned
     * as type {@code -1}; application data or anything else is an unexpected_message.
     */
    Message read() throws IOException {
        while (end - start < 4 || end - start < 4 + length(start)) {
            if (end > start && end - start >= 4 && length(start) > MAX_MESSAGE) {
                throw TlcpAlert.send(TlcpAlert.DECODE_ERROR, "handshake message of " + length(start) + " bytes");
            }
            if (end == start) {
                records.read();
                if (records.type == RecordLayer.CHANGE_CIPHER_SPEC) {
                    if (records.length != 1 || records.body()[records.offset] != 1) {
                        throw TlcpAlert.send(TlcpAlert.DECODE_ERROR, "bad ChangeCipherSpec");
                    }
                    return new Message(-1, null);
                }
            } else {
                records.read();
            }
            if (records.type != RecordLayer.HANDSHAKE) {
                throw TlcpAlert.send(TlcpAlert.UNEXPECTED_MESSAGE, "expected a handshake message, got record type "
                        + records.type);
            }
            append(records.body(), records.offset, records.length);
        }
        int len = length(start);
        int type = buffer[start] & 0xff;
        transcript.update(buffer, start, 4 + len);
        byte[] body = Arrays.copyOfRange(buffer, start + 4, start + 4 + len);
        start += 4 + len;
        if (start == end) {
            start = 0;
            end = 0;
        }
        return new Message(type, new Reader(body));
    }

    /** The next message, which must be of {@code type}. */
    Reader expect(int type, String what) throws IOException {
        Message m = read();
        if (m.type != type) {
            throw TlcpAlert.send(TlcpAlert.UNEXPECTED_MESSAGE, "expected " + what + ", got "
                    + (m.type < 0 ? "ChangeCipherSpec" : "handshake message " + m.type));
        }
        return m.body;
    }

    /** Reads the peer's ChangeCipherSpec. */
    void expectChangeCipherSpec() throws IOException {
        if (end > start) {
            throw TlcpAlert.send(TlcpAlert.UNEXPECTED_MESSAGE, "handshake data before ChangeCipherSpec");
        }
        Message m = read();
        if (m.type != -1) {
            throw TlcpAlert.send(TlcpAlert.UNEXPECTED_MESSAGE,
                    "expected ChangeCipherSpec, got handshake message " + m.type);
        }
    }

    private int length(int at) {
        return ((buffer[at + 1] & 0xff) << 16) | ((buffer[at + 2] & 0xff) << 8) | (buffer[at + 3] & 0xff);
    }

    private void append(byte[] b, int off, int len) {
        if (end + len > buffer.length) {
            if (start > 0) {
                System.arraycopy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
            }
            if (end + len > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, end + len));
            }
        }
        System.arraycopy(b, off, buffer, end, len);
        end += len;
    }

    /** Writes a handshake message (buffered in the record layer) and adds it to the transcript. */
    void write(int type, Writer body) {
        byte[] b = body.message(type);
        transcript.update(b, 0, b.length);
        records.write(RecordLayer.HANDSHAKE, b, 0, b.length);
    }

    /** Reads a handshake message body: big-endian integers and length-prefixed vectors. */
    static final class Reader {
        private final byte[] b;
        private int p;

        Reader(byte[] b) {
            this.b = b;
        }

        int remaining() {
            return b.length - p;
        }

        private void need(int n) throws TlcpAlert {
            if (n < 0 || b.length - p < n) {
                throw TlcpAlert.send(TlcpAlert.DECODE_ERROR, "handshake message too short");
            }
        }

        int u8() throws TlcpAlert {
            need(1);
            return b[p++] & 0xff;
        }

        int u16() throws TlcpAlert {
            need(2);
            int v = ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
            p += 2;
            return v;
        }

        int u24() throws TlcpAlert {
            need(3);
            int v = ((b[p] & 0xff) << 16) | ((b[p + 1] & 0xff) << 8) | (b[p + 2] & 0xff);
            p += 3;
            return v;
        }

        byte[] bytes(int n) throws TlcpAlert {
            need(n);
            byte[] out = Arrays.copyOfRange(b, p, p + n);
            p += n;
            return out;
        }

        byte[] vector8() throws TlcpAlert {
            return bytes(u8());
        }

        byte[] vector16() throws TlcpAlert {
            return bytes(u16());
        }

        byte[] vector24() throws TlcpAlert {
            return bytes(u24());
        }

        /** Whole message consumed, else decode_error. */
        void end() throws TlcpAlert {
            if (p != b.length) {
                throw TlcpAlert.send(TlcpAlert.DECODE_ERROR,
                        "handshake message has " + (b.length - p) + " extra bytes");
            }
        }

        /** The raw bytes from {@code from} to the current position (signed parameters). */
        byte[] since(int from) {
            return Arrays.copyOfRange(b, from, p);
        }

        int position() {
            return p;
        }
    }

    /** Builds a handshake message body. */
    static final class Writer {
        private byte[] b = new byte[256];
        private int n = 4;

        private void ensure(int more) {
            if (n + more > b.length) {
                b = Arrays.copyOf(b, Math.max(b.length * 2, n + more));
            }
        }

        Writer u8(int v) {
            ensure(1);
            b[n++] = (byte) v;
            return this;
        }

        Writer u16(int v) {
            ensure(2);
            b[n++] = (byte) (v >>> 8);
            b[n++] = (byte) v;
            return this;
        }

        Writer u24(int v) {
            ensure(3);
            b[n++] = (byte) (v >>> 16);
            b[n++] = (byte) (v >>> 8);
            b[n++] = (byte) v;
            return this;
        }

        Writer bytes(byte[] v) {
            ensure(v.length);
            System.arraycopy(v, 0, b, n, v.length);
            n += v.length;
            return this;
        }

        Writer vector8(byte[] v) {
            return u8(v.length).bytes(v);
        }

        Writer vector16(byte[] v) {
            return u16(v.length).bytes(v);
        }

        Writer vector24(byte[] v) {
            return u24(v.length).bytes(v);
        }

        /** Position of the next byte in the body (for back-patched lengths). */
        int position() {
            return n - 4;
        }

        /** Writes {@code v} as a 3-byte length at body position {@code at}. */
        void patch24(int at, int v) {
            b[4 + at] = (byte) (v >>> 16);
            b[4 + at + 1] = (byte) (v >>> 8);
            b[4 + at + 2] = (byte) v;
        }

        void patch16(int at, int v) {
            b[4 + at] = (byte) (v >>> 8);
            b[4 + at + 1] = (byte) v;
        }

        /** The body bytes alone. */
        byte[] body() {
            return Arrays.copyOfRange(b, 4, n);
        }

        /** Header + body. */
        byte[] message(int type) {
            int len = n - 4;
            b[0] = (byte) type;
            b[1] = (byte) (len >>> 16);
            b[2] = (byte) (len >>> 8);
            b[3] = (byte) len;
            return Arrays.copyOf(b, n);
        }
    }
}
