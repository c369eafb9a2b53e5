package org.trustload.gmssl;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A minimal HTTP/1.1 GET over one {@link TlcpConnection}, enough for the GM-SSL metrics (small page
 * without keep-alive, large page on a kept-alive connection). Bodies are counted, not kept, so a
 * 1 MB page costs no heap. One instance per connection (it buffers the input); not thread-safe.
 */
public final class TlcpHttp {
    private static final int MAX_HEADER_BYTES = 16 * 1024;

    private final TlcpConnection connection;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] sink = new byte[64 * 1024];

    /** The outcome of one GET. */
    public record Response(int status, String statusLine, String headers, long bodyBytes, boolean keepAlive,
            long firstByteNanos, long transferNanos) {
    }

    public TlcpHttp(TlcpConnection connection) {
        this.connection = connection;
        this.in = new BufferedInputStream(connection.input(), 16 * 1024);
        this.out = connection.output();
    }

    /** The connection this client talks on. */
    public TlcpConnection connection() {
        return connection;
    }

    /**
     * Sends {@code GET path} and reads the whole response. The read timeout is the connection's.
     *
     * @param keepAlive true sends {@code Connection: keep-alive}, false {@code Connection: close}
     * @throws TlcpException {@link TlcpException#TIMEOUT}, {@link TlcpException#IO_ERROR},
     *     {@link TlcpException#HTTP_ERROR} (malformed response; a non-200 status is returned, not thrown)
     */
    public Response get(String host, String path, boolean keepAlive) throws TlcpException {
        String target = host;
        long t0 = System.nanoTime();
        try {
            String req = "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: TrustLoad\r\nConnection: "
                    + (keepAlive ? "keep-alive" : "close") + "\r\n\r\n";
            out.write(req.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            int first = in.read();
            if (first < 0) {
                throw new TlcpException(TlcpException.IO_ERROR, "connection closed by peer", target + ": no response", null);
            }
            long t1 = System.nanoTime();
            String head = readHead(first);
            int eol = head.indexOf("\r\n");
            String statusLine = eol < 0 ? head : head.substring(0, eol);
            String headers = eol < 0 ? "" : head.substring(eol + 2);
            int status = parseStatus(statusLine);
            long length = -1;
            boolean serverKeepAlive = true;
            for (String line : headers.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = line.substring(colon + 1).trim();
                if (name.equals("content-length")) {
                    try {
                        length = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new TlcpException(TlcpException.HTTP_ERROR, "bad Content-Length", value, e);
                    }
                } else if (name.equals("connection") && value.equalsIgnoreCase("close")) {
                    serverKeepAlive = false;
                } else if (name.equals("transfer-encoding")) {
                    throw new TlcpException(TlcpException.HTTP_ERROR, "chunked responses not supported", value, null);
                }
            }
            long body = length >= 0 ? drain(length) : drainToEnd();
            long t2 = System.nanoTime();
            return new Response(status, statusLine, headers, body, keepAlive && serverKeepAlive && length >= 0,
                    t1 - t0, t2 - t1);
        } catch (IOException e) {
            throw TlcpErrors.map(TlcpErrors.Phase.EXCHANGE, target, e);
        }
    }

    private String readHead(int first) throws IOException, TlcpException {
        StringBuilder b = new StringBuilder();
        b.append((char) first);
        String head = readHead(in, b);
        if (head == null) {
            throw new TlcpException(TlcpException.IO_ERROR, "connection closed by peer", "inside the response header", null);
        }
        return head;
    }

    /**
     * Reads an HTTP head (after what {@code b} already holds) up to the blank line, which is not
     * returned; null when the stream ends first. Shared with testkit's {@code TlcpPageServer}.
     */
    static String readHead(InputStream in, StringBuilder b) throws IOException {
        int c;
        while ((c = in.read()) >= 0) {
            b.append((char) c);
            int n = b.length();
            if (n >= 4 && b.charAt(n - 1) == '\n' && b.charAt(n - 2) == '\r' && b.charAt(n - 3) == '\n'
                    && b.charAt(n - 4) == '\r') {
                return b.substring(0, n - 4);
            }
            if (n > MAX_HEADER_BYTES) {
                throw new java.net.SocketException("HTTP header longer than " + MAX_HEADER_BYTES + " bytes");
            }
        }
        return null;
    }

    private static int parseStatus(String statusLine) throws TlcpException {
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new TlcpException(TlcpException.HTTP_ERROR, "not an HTTP response", statusLine, null);
        }
        try {
            return Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new TlcpException(TlcpException.HTTP_ERROR, "not an HTTP response", statusLine, e);
        }
    }

    private long drain(long length) throws IOException, TlcpException {
        long left = length;
        while (left > 0) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                throw new TlcpException(TlcpException.IO_ERROR, "connection closed by peer",
                        "body ended after " + (length - left) + " of " + length + " bytes", null);
            }
            left -= n;
        }
        return length;
    }

    private long drainToEnd() throws IOException {
        long total = 0;
        int n;
        while ((n = in.read(sink)) >= 0) {
            total += n;
        }
        return total;
    }
}
