package org.trustload.gmssl;

import java.io.IOException;
import java.io.InputStream;
import org.apache.http.ConnectionClosedException;
import org.apache.http.Header;
import org.apache.http.HttpException;
import org.apache.http.HttpResponse;
import org.apache.http.HttpStatus;
import org.apache.http.HttpVersion;
import org.apache.http.MalformedChunkCodingException;
import org.apache.http.NoHttpResponseException;
import org.apache.http.ParseException;
import org.apache.http.TruncatedChunkException;
import org.apache.http.config.MessageConstraints;
import org.apache.http.entity.ContentLengthStrategy;
import org.apache.http.impl.DefaultConnectionReuseStrategy;
import org.apache.http.impl.entity.LaxContentLengthStrategy;
import org.apache.http.impl.io.ChunkedInputStream;
import org.apache.http.impl.io.ContentLengthInputStream;
import org.apache.http.impl.io.DefaultHttpRequestWriter;
import org.apache.http.impl.io.DefaultHttpResponseParser;
import org.apache.http.impl.io.HttpTransportMetricsImpl;
import org.apache.http.impl.io.IdentityInputStream;
import org.apache.http.impl.io.SessionInputBufferImpl;
import org.apache.http.impl.io.SessionOutputBufferImpl;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.protocol.BasicHttpContext;
import org.apache.http.protocol.HttpCoreContext;

/**
 * HTTP/1.1 GETs over one {@link TlcpConnection}, on httpcore 4.4 (the version JMeter ships): its
 * request writer, response parser, and body decoders (Content-Length, chunked, read-to-close), and its
 * keep-alive rule. Bodies are counted, not kept, so a 1 MB page costs no heap. One instance per
 * connection (it buffers the input); not thread-safe.
 */
public final class TlcpHttp {
    private static final int BUFFER = 16 * 1024;
    private static final ContentLengthStrategy LENGTHS = new LaxContentLengthStrategy();

    private final TlcpConnection connection;
    private final SessionInputBufferImpl in;
    private final SessionOutputBufferImpl out;
    private final DefaultHttpRequestWriter writer;
    private final DefaultHttpResponseParser parser;
    private final byte[] sink = new byte[64 * 1024];

    /**
     * The outcome of one GET.
     *
     * @param headers the response's header lines, CRLF-separated, without the status line
     * @param keepAlive whether the connection may carry the next request
     */
    public record Response(int status, String statusLine, String headers, long bodyBytes, boolean keepAlive,
            long firstByteNanos, long transferNanos) {
    }

    public TlcpHttp(TlcpConnection connection) {
        this.connection = connection;
        HttpTransportMetricsImpl inMetrics = new HttpTransportMetricsImpl();
        this.in = new SessionInputBufferImpl(inMetrics, BUFFER, BUFFER, MessageConstraints.DEFAULT, null);
        in.bind(connection.input());
        this.out = new SessionOutputBufferImpl(new HttpTransportMetricsImpl(), BUFFER);
        out.bind(connection.output());
        this.writer = new DefaultHttpRequestWriter(out);
        this.parser = new DefaultHttpResponseParser(in);
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
        long t0 = System.nanoTime();
        try {
            BasicHttpRequest request = new BasicHttpRequest("GET", path, HttpVersion.HTTP_1_1);
            request.addHeader("Host", host);
            request.addHeader("User-Agent", "TrustLoad");
            request.addHeader("Connection", keepAlive ? "keep-alive" : "close");
            writer.write(request);
            out.flush();
            if (in.length() == 0 && in.fillBuffer() < 0) {
                throw new TlcpException(TlcpException.IO_ERROR, "connection closed by peer",
                        host + ": no response", null);
            }
            long t1 = System.nanoTime();
            HttpResponse response = parser.parse();
            int status = response.getStatusLine().getStatusCode();
            long body = drain(response, status);
            long t2 = System.nanoTime();
            BasicHttpContext context = new BasicHttpContext();
            context.setAttribute(HttpCoreContext.HTTP_REQUEST, request);
            boolean reuse = keepAlive && DefaultConnectionReuseStrategy.INSTANCE.keepAlive(response, context);
            return new Response(status, response.getStatusLine().toString(), headers(response), body, reuse, t1 - t0,
                    t2 - t1);
        } catch (NoHttpResponseException e) {
            throw new TlcpException(TlcpException.IO_ERROR, "connection closed by peer", host + ": no response", e);
        } catch (TruncatedChunkException e) {
            throw new TlcpException(TlcpException.IO_ERROR, "connection closed by peer",
                    host + ": " + e.getMessage(), e);
        } catch (MalformedChunkCodingException e) {
            throw new TlcpException(TlcpException.HTTP_ERROR, "malformed HTTP response",
                    host + ": " + TlcpErrors.chain(e), e);
        } catch (ConnectionClosedException e) {
            throw new TlcpException(TlcpException.IO_ERROR, "connection closed by peer",
                    host + ": " + e.getMessage(), e);
        } catch (HttpException | ParseException e) {
            throw new TlcpException(TlcpException.HTTP_ERROR, "malformed HTTP response",
                    host + ": " + TlcpErrors.chain(e), e);
        } catch (IOException e) {
            throw TlcpErrors.map(TlcpErrors.Phase.EXCHANGE, host, e);
        }
    }

    /** Reads the body to its end as the response delimits it; returns its length. */
    private long drain(HttpResponse response, int status) throws IOException, HttpException {
        if (status < HttpStatus.SC_OK || status == HttpStatus.SC_NO_CONTENT || status == HttpStatus.SC_NOT_MODIFIED) {
            return 0; // no body (RFC 9112 6.3)
        }
        long length = LENGTHS.determineLength(response);
        InputStream body = length == ContentLengthStrategy.CHUNKED
                ? new ChunkedInputStream(in, MessageConstraints.DEFAULT)
                : length == ContentLengthStrategy.IDENTITY ? new IdentityInputStream(in)
                : new ContentLengthInputStream(in, length);
        long total = 0;
        int n;
        while ((n = body.read(sink)) >= 0) {
            total += n;
        }
        return total;
    }

    private static String headers(HttpResponse response) {
        StringBuilder b = new StringBuilder();
        for (Header h : response.getAllHeaders()) {
            b.append(b.length() == 0 ? "" : "\r\n").append(h.getName()).append(": ").append(h.getValue());
        }
        return b.toString();
    }
}
