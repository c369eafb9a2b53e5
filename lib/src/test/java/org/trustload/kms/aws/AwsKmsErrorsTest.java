package org.trustload.kms.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.http.NoHttpResponseException;
import org.apache.http.conn.ConnectTimeoutException;
import org.apache.http.conn.ConnectionPoolTimeoutException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/** The AWS client's network ladder: what the SDK and its Apache HTTP client throw, named as users read it. */
class AwsKmsErrorsTest {

    private static String mapped(Throwable cause) {
        var k = AwsKmsClient.map(SdkClientException.create("Unable to execute HTTP request: x", cause));
        return k.category() + " " + k.getMessage();
    }

    @Test
    void eachNetworkFailureHasItsCode() {
        // a pool wait is a ConnectTimeoutException too: its own rung comes first
        assertThat(mapped(new ConnectionPoolTimeoutException("Timeout waiting for connection from pool")))
                .isEqualTo("KMS.Timeout -:PoolTimeout");
        assertThat(mapped(new ConnectTimeoutException("Connect to 127.0.0.1:1 failed: connect timed out")))
                .isEqualTo("KMS.Timeout -:ConnectTimeout");
        assertThat(mapped(new SocketTimeoutException("Read timed out"))).isEqualTo("KMS.Timeout -:ReadTimeout");
        assertThat(mapped(new SSLHandshakeException("PKIX path building failed")))
                .isEqualTo("KMS.TlsError -:TlsHandshake");
        assertThat(mapped(new IOException("wrapped", new ConnectException("Connection refused"))))
                .isEqualTo("KMS.ConnectionError -:ConnectionRefused");
        assertThat(mapped(new NoHttpResponseException("127.0.0.1:1 failed to respond")))
                .isEqualTo("KMS.ConnectionError -:ConnectionClosed");
    }
}
