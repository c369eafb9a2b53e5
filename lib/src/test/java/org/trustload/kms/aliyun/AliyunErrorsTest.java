package org.trustload.kms.aliyun;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/** The Alibaba client's network ladder: the first I/O exception in the SDK's wrapping, named as users read it. */
class AliyunErrorsTest {

    private static String mapped(Throwable io) {
        var k = AliyunErrors.map(new RuntimeException("TeaUnretryableException", io));
        return k.category() + " " + k.getMessage();
    }

    @Test
    void eachNetworkFailureHasItsCode() {
        assertThat(mapped(new SocketTimeoutException("connect timed out"))).isEqualTo("KMS.Timeout -:ConnectTimeout");
        assertThat(mapped(new SocketTimeoutException("timeout"))).isEqualTo("KMS.Timeout -:ReadTimeout");
        assertThat(mapped(new ConnectException("Failed to connect to /127.0.0.1:1")))
                .isEqualTo("KMS.ConnectionError -:ConnectionRefused");
        assertThat(mapped(new UnknownHostException("kms.invalid"))).isEqualTo("KMS.ConnectionError -:UnknownHost");
        assertThat(mapped(new com.google.protobuf.InvalidProtocolBufferException("truncated")))
                .isEqualTo("KMS.ServerError -:MalformedResponse");
        assertThat(mapped(new java.io.EOFException("\\n not found"))).isEqualTo("KMS.ConnectionError -:EOFException");
    }
}
