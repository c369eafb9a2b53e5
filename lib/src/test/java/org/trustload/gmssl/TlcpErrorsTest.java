package org.trustload.gmssl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Every handshake failure says why, in the message and the detail. */
class TlcpErrorsTest {

    @Test
    void anAlertIsNamed() {
        TlcpException e = TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, "h:1",
                new SSLHandshakeException("Received fatal alert: bad_certificate"));
        assertThat(e.category()).isEqualTo(TlcpException.HANDSHAKE_FAILED);
        assertThat(e.getMessage()).isEqualTo("alert bad_certificate");
        assertThat(e.detail()).isEqualTo(
                "h:1: javax.net.ssl.SSLHandshakeException: Received fatal alert: bad_certificate");
    }

    @Test
    void anUnrecognisedFailureCarriesItsInnermostCauseOnOneLine() {
        SSLHandshakeException outer = new SSLHandshakeException("General SSLEngine problem");
        outer.initCause(new IllegalStateException("SM2 decryption failed\nsecond line"));
        TlcpException e = TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, "h:1", outer);
        assertThat(e.getMessage()).isEqualTo("handshake failure: IllegalStateException: SM2 decryption failed");
        assertThat(e.detail()).doesNotContain("\n")
                .contains("General SSLEngine problem <- java.lang.IllegalStateException");
    }

    @Test
    void aFailureWithoutAnyMessageStillNamesItsType() {
        TlcpException e = TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, "h:1", new SSLException((String) null));
        assertThat(e.getMessage()).isEqualTo("handshake failure: SSLException");
    }

    @Test
    void aPeerClosingDuringTheHandshakeIsSaidSo() {
        TlcpException e = TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, "h:1",
                new SSLException("Remote host terminated the handshake",
                        new EOFException("SSL peer shut down incorrectly")));
        assertThat(e.getMessage()).isEqualTo("connection closed by peer during handshake");
        assertThat(e.detail()).contains("SSL peer shut down incorrectly");
    }

    @Test
    void protocolMismatchesOfEveryEngineAreOneKind() {
        for (String m : new String[] {"Received fatal alert: protocol_version",
                "No appropriate protocol (protocol is disabled or cipher suites are inappropriate)",
                "Unable to parse TLS packet header", "Unsupported or unrecognized SSL message",
                "protocol mismatch: the server chose version 0x0303 (TLS 1.2/1.3), not TLCP (0x0101) [we sent"
                + " alert protocol_version]",
                "the peer does not speak TLCP: its data starts with 0x485454 (\"HTT\") [we sent alert"
                + " protocol_version]"}) {
            TlcpException e = TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, "h:1", new SSLHandshakeException(m));
            assertThat(TlcpErrors.isProtocolMismatch(e)).as(m).isTrue();
            assertThat(e.getMessage()).startsWith(TlcpErrors.PROTOCOL_MISMATCH + ": ");
        }
        assertThat(TlcpErrors.isProtocolMismatch(TlcpErrors.map(TlcpErrors.Phase.HANDSHAKE, "h:1",
                new SSLHandshakeException("Received fatal alert: handshake_failure")))).isFalse();
    }
}
