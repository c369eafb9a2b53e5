package org.trustload.labkit.gmssl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The page server keeps a connection open when HTTP says so, as the lab's gateway must. */
class TlcpPageServerTest {

    @Test
    void keepAliveFollowsTheHttpVersionAndTheConnectionHeader() {
        assertThat(TlcpPageServer.keepAlive(request("HTTP/1.1"))).isTrue();
        assertThat(TlcpPageServer.keepAlive(request("HTTP/1.1", "Connection", "Close"))).isFalse();
        assertThat(TlcpPageServer.keepAlive(request("HTTP/1.1", "connection", "TE, close"))).isFalse();
        assertThat(TlcpPageServer.keepAlive(request("HTTP/1.0"))).isFalse();
        assertThat(TlcpPageServer.keepAlive(request("HTTP/1.0", "Connection", "Keep-Alive"))).isTrue();
        assertThat(TlcpPageServer.keepAlive(request("HTTP/1.0", "X-Connection", "keep-alive"))).isFalse();
    }

    private static org.apache.http.HttpRequest request(String version, String... header) {
        org.apache.http.message.BasicHttpRequest r = new org.apache.http.message.BasicHttpRequest("GET", "/",
                version.equals("HTTP/1.0") ? org.apache.http.HttpVersion.HTTP_1_0
                        : org.apache.http.HttpVersion.HTTP_1_1);
        if (header.length == 2) {
            r.addHeader(header[0], header[1]);
        }
        return r;
    }
}
