package org.trustload.gmssl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsseTlcpClientTest {

    @Test
    void aSessionTimeInWholeSecondsIsNewWithinTheStartsSecond() {
        long start = 1_700_000_000_500L;
        assertThat(JsseTlcpClient.createdBefore(1_700_000_000_000L, start)).isFalse(); // tongsuo: this handshake's
        assertThat(JsseTlcpClient.createdBefore(1_699_999_999_000L, start)).isTrue(); // an earlier second's
    }

    @Test
    void aSessionTimeInMillisecondsIsComparedExactly() {
        long start = 1_700_000_000_500L;
        assertThat(JsseTlcpClient.createdBefore(1_700_000_000_499L, start)).isTrue();
        assertThat(JsseTlcpClient.createdBefore(1_700_000_000_501L, start)).isFalse();
    }
}
