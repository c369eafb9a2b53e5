package org.trustload.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class ClientExceptionTest {

    @Test
    void readableIsTheInnermostMessageWithItsTypeNotANestedDump() {
        Exception nested = new IOException("java.io.IOException: wrapper", new RuntimeException(
                "java.net.ConnectException: Connection refused", new ConnectException("Connection refused")));
        assertThat(ClientException.readable(nested)).isEqualTo("Connection refused (ConnectException)");
        assertThat(ClientException.readable(new IllegalStateException())).isEqualTo("IllegalStateException");
        assertThat(ClientException.readable(new IOException("first line\nsecond line")))
                .isEqualTo("first line (IOException)");
    }

    @Test
    void connectFailuresUsersFixDifferentlyReadDifferently() {
        assertThat(ClientException.connectFailure(new IOException(new ConnectException("Connection refused"))))
                .isEqualTo("connection refused");
        assertThat(ClientException.connectFailure(new UnknownHostException("x.invalid"))).isEqualTo("unknown host");
        assertThat(ClientException.connectFailure(new SocketTimeoutException("connect timed out")))
                .isEqualTo("connect timed out");
        assertThat(ClientException.connectFailure(new IOException("other"))).isNull();
        // java.net.http (Java 17) on a closed port: ConnectException(null) <- ConnectException(null) <-
        // ClosedChannelException
        ConnectException http = new ConnectException();
        ConnectException inner = new ConnectException();
        inner.initCause(new java.nio.channels.ClosedChannelException());
        http.initCause(inner);
        assertThat(ClientException.connectFailure(http)).isEqualTo("connection refused");
        assertThat(ClientException.connectFailure(new ConnectException())).isEqualTo("connection failed");
    }

    @Test
    void aConfigurationErrorNamesItsSettingAndFileAndKeepsOneReadableCause() {
        ClientException e = ClientException.config("trustStore", "/x/t.p12", "trust store file is empty",
                new IOException("outer", new IOException("inner cause")));
        assertThat(e.isConfigError()).isTrue();
        assertThat(e.category()).isEqualTo("configError");
        assertThat(e.setting()).isEqualTo("trustStore");
        assertThat(e.file()).isEqualTo("/x/t.p12");
        assertThat(e.getMessage()).isEqualTo("trust store file is empty");
        assertThat(e.detail()).isEqualTo("trust store file is empty: inner cause (IOException)");
        assertThat(new ClientException("connectError", "m", null, null).detail()).isEqualTo("m");
    }
}
