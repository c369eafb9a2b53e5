package org.trustload.gmssl.tlcp;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import org.trustload.common.Closeables;
import org.trustload.gmssl.AbstractTlcpConnection;
import org.trustload.gmssl.TlcpProtocol;

/**
 * A handshaken TLCP connection of the {@code bc} engine: application data over the record layer of
 * one TCP socket. The input stream ends (-1) at the peer's close_notify or TCP close; the output
 * stream encrypts on write and sends on flush (or once 32 KiB are pending).
 */
final class BcConnection extends AbstractTlcpConnection {
    private static final int FLUSH_AT = 32 * 1024;

    private final Socket socket;
    private final RecordLayer records;
    private final InputStream in = new AppInput();
    private final OutputStream out = new AppOutput();
    private volatile boolean closed;
    private boolean peerClosed;

    BcConnection(Socket socket, RecordLayer records, String suite, boolean resumed, long connectNanos,
            long handshakeNanos) {
        super(TlcpProtocol.TLCP.label(), suite, resumed, connectNanos, handshakeNanos);
        this.socket = socket;
        this.records = records;
    }

    @Override
    public InputStream input() {
        return in;
    }

    @Override
    public OutputStream output() {
        return out;
    }

    @Override
    public boolean isClosed() {
        return closed || socket.isClosed();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!peerClosed && !socket.isClosed()) {
            synchronized (out) {
                records.sendCloseNotify();
            }
        }
        Closeables.closeQuietly(socket);
    }

    private final class AppInput extends InputStream {
        private int pos;
        private int limit;

        private boolean fill() throws IOException {
            while (pos >= limit) {
                if (peerClosed) {
                    return false;
                }
                try {
                    records.read();
                } catch (EOFException e) {
                    peerClosed = true;
                    return false;
                }
                if (records.type == RecordLayer.APPLICATION_DATA) {
                    pos = records.offset;
                    limit = records.offset + records.length;
                } else if (records.type != RecordLayer.HANDSHAKE) {
                    // a HelloRequest (renegotiation) is ignored; anything else is a protocol error
                    records.sendAlert(TlcpAlert.UNEXPECTED_MESSAGE);
                    throw TlcpAlert.send(TlcpAlert.UNEXPECTED_MESSAGE,
                            "record type " + records.type + " after the handshake");
                }
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            return records.body()[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(records.body(), pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() {
            return limit - pos;
        }

        @Override
        public void close() {
            BcConnection.this.close();
        }
    }

    private final class AppOutput extends OutputStream {
        private int pending;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("connection closed");
            }
            records.write(RecordLayer.APPLICATION_DATA, b, off, len);
            pending += len;
            if (pending >= FLUSH_AT) {
                flush();
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            pending = 0;
            records.flush();
        }

        @Override
        public void close() {
            BcConnection.this.close();
        }
    }
}
