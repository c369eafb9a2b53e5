package org.trustload.gmssl.tlcp;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The TLCP record layer of one connection (GB/T 38636: TLS-style records, version 1.1 = 0x0101):
 * reads records from the socket and decrypts them once the peer's ChangeCipherSpec switched its
 * cipher on; encrypts and buffers outgoing records until {@link #flush()}, so a whole handshake
 * flight leaves in one write. Alerts received are thrown as {@link TlcpAlert}; a record that is not
 * TLCP at all (another protocol's record version, or no TLS record) as a protocol mismatch. Not
 * thread-safe: one reader and one writer thread at most.
 */
final class RecordLayer {
    static final int VERSION = 0x0101;
    static final int CHANGE_CIPHER_SPEC = 20;
    static final int ALERT = 21;
    static final int HANDSHAKE = 22;
    static final int APPLICATION_DATA = 23;
    static final int MAX_PLAINTEXT = 16384;
    private static final int MAX_RECORD = MAX_PLAINTEXT + 2048;

    private final InputStream in;
    private final OutputStream out;
    private final byte[] head = new byte[5];
    /** Grown to the largest record seen (a handshake needs a few KiB, bulk data 16 KiB records). */
    private byte[] body = new byte[4096];
    private RecordCipher readCipher;
    private RecordCipher writeCipher;
    private long readSeq;
    private long writeSeq;
    private byte[] pending = new byte[2048];
    private int pendingLength;
    /** Whether a record of the peer was read yet: the first one tells the protocol apart. */
    private boolean first = true;

    /** The current record: {@code type}, its plaintext at {@code body[offset .. offset+length)}. */
    int type;
    int offset;
    int length;

    RecordLayer(InputStream in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    /** True until the peer's first record was read. */
    boolean nothingReceived() {
        return first;
    }

    /** The record body buffer of the current record (its plaintext is at {@link #offset}). */
    byte[] body() {
        return body;
    }

    /** Reads the next record; throws the peer's fatal alert as {@link TlcpAlert}, EOF at the end. */
    void read() throws IOException {
        while (true) {
            readFully(head, 0, 5, first);
            int t = head[0] & 0xff;
            int version = ((head[1] & 0xff) << 8) | (head[2] & 0xff);
            int len = ((head[3] & 0xff) << 8) | (head[4] & 0xff);
            boolean known = t >= CHANGE_CIPHER_SPEC && t <= APPLICATION_DATA;
            if (!known || (head[1] != 1 && head[1] != 3) || len > MAX_RECORD) {
                throw mismatch("the peer does not speak TLCP: its data starts with 0x"
                        + hex(head) + (printable(head)
                                ? " (\"" + new String(head, java.nio.charset.StandardCharsets.US_ASCII) + "\")" : ""));
            }
            if (len > body.length) {
                body = new byte[Math.max(len, Math.min(MAX_RECORD, body.length * 4))];
            }
            readFully(body, 0, len, false);
            if (version != VERSION && t != ALERT) {
                throw mismatch("protocol mismatch: the peer answered with record version " + versionName(version)
                        + ", not TLCP (0x0101)");
            }
            first = false;
            if (readCipher != null) {
                int plain = readCipher.open(t, readSeq++, body, len);
                offset = readCipher.plaintextOffset();
                length = plain;
            } else {
                offset = 0;
                length = len;
            }
            type = t;
            if (t == ALERT) {
                if (length < 2) {
                    throw TlcpAlert.send(TlcpAlert.DECODE_ERROR, "short alert");
                }
                int level = body[offset] & 0xff;
                int description = body[offset + 1] & 0xff;
                if (description == TlcpAlert.CLOSE_NOTIFY) {
                    throw new EOFException("close_notify");
                }
                if (level == 1) {
                    continue; // warnings: nothing to do (no renegotiation here)
                }
                throw TlcpAlert.received(description);
            }
            return;
        }
    }

    private TlcpAlert mismatch(String why) {
        return TlcpAlert.send(TlcpAlert.PROTOCOL_VERSION, why);
    }

    static String versionName(int v) {
        switch (v) {
            case 0x0300: return "0x0300 (SSL 3.0)";
            case 0x0301: return "0x0301 (TLS 1.0)";
            case 0x0302: return "0x0302 (TLS 1.1)";
            case 0x0303: return "0x0303 (TLS 1.2/1.3)";
            case 0x0304: return "0x0304 (TLS 1.3)";
            default: return String.format("0x%04x", v);
        }
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }

    private static boolean printable(byte[] b) {
        for (byte x : b) {
            if (x < 0x20 || x > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private void readFully(byte[] b, int off, int len, boolean atStart) throws IOException {
        int done = 0;
        while (done < len) {
            int n = in.read(b, off + done, len - done);
            if (n < 0) {
                if (atStart && done == 0) {
                    throw new EOFException("connection closed by the peer");
                }
                throw new EOFException("connection closed by the peer inside a record");
            }
            done += n;
        }
    }

    /** Buffers {@code len} bytes of {@code type} as records of at most 16 KiB (encrypted when on). */
    void write(int type, byte[] b, int off, int len) {
        do {
            int n = Math.min(len, MAX_PLAINTEXT);
            byte[] rec = writeCipher == null ? Arrays.copyOfRange(b, off, off + n)
                    : writeCipher.seal(type, writeSeq++, b, off, n);
            ensure(5 + rec.length);
            pending[pendingLength] = (byte) type;
            pending[pendingLength + 1] = (byte) (VERSION >>> 8);
            pending[pendingLength + 2] = (byte) VERSION;
            pending[pendingLength + 3] = (byte) (rec.length >>> 8);
            pending[pendingLength + 4] = (byte) rec.length;
            System.arraycopy(rec, 0, pending, pendingLength + 5, rec.length);
            pendingLength += 5 + rec.length;
            off += n;
            len -= n;
        } while (len > 0);
    }

    private void ensure(int more) {
        if (pendingLength + more > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + more));
        }
    }

    /** Sends what {@link #write} buffered. */
    void flush() throws IOException {
        if (pendingLength > 0) {
            out.write(pending, 0, pendingLength);
            pendingLength = 0;
            if (pending.length > 64 * 1024) {
                pending = new byte[4096]; // a bulk write's buffer is not kept
            }
        }
        out.flush();
    }

    /** Our ChangeCipherSpec: buffers it, then protects what follows with {@code c}. */
    void changeWriteCipher(RecordCipher c) {
        write(CHANGE_CIPHER_SPEC, new byte[] {1}, 0, 1);
        writeCipher = c;
        writeSeq = 0;
    }

    /** The peer's ChangeCipherSpec was read: its next records are protected with {@code c}. */
    void changeReadCipher(RecordCipher c) {
        readCipher = c;
        readSeq = 0;
    }

    /** Buffers and sends a fatal alert, best effort. */
    void sendAlert(int description) {
        try {
            write(ALERT, new byte[] {2, (byte) description}, 0, 2);
            flush();
        } catch (IOException | RuntimeException ignored) {
            // the connection is being given up anyway
        }
    }

    /** Sends close_notify, best effort. */
    void sendCloseNotify() {
        try {
            write(ALERT, new byte[] {1, 0}, 0, 2);
            flush();
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
    }
}
