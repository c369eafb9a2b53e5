package org.trustload.gmssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class TongsuoLoaderTest {

    private static byte[] resource(String path) throws Exception {
        try (InputStream in = TongsuoLoaderTest.class.getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void replacesTheOneProviderConstructionInTongsuoSslUtils() throws Exception {
        byte[] shipped = resource("/org/conscrypt/SSLUtils.class");
        byte[] patched = TongsuoLoader.patch(shipped);
        assertThat(patched).isNotSameAs(shipped);
        // six constants appended (Utf8 owner 42 bytes, Class 3, Utf8 name 11, Utf8 descriptor 29,
        // NameAndType 5, Methodref 5); the code keeps its length
        assertThat(patched.length).isEqualTo(shipped.length + 95);
        // applied once only: the patched class no longer has the instructions, so it stays as it is
        assertThat(TongsuoLoader.patch(patched)).isSameAs(patched);
    }

    @Test
    void leavesOtherClassesAlone() throws Exception {
        byte[] other = resource("/org/trustload/gmssl/TongsuoLoaderTest.class");
        assertThat(TongsuoLoader.patch(other)).isSameAs(other);
        byte[] garbage = {1, 2, 3};
        assertThat(TongsuoLoader.patch(garbage)).isSameAs(garbage);
    }

    @Test
    void theEngineRunsThePatchedClass() throws Exception {
        String os = System.getProperty("os.name", "") + "/" + System.getProperty("os.arch", "");
        assumeTrue(os.toLowerCase(Locale.ROOT).matches("linux/(amd64|x86_64)"), "tongsuo ships linux-x86_64 only");
        TongsuoEngine.provider();
        assertThat(TongsuoEngine.certificateProviderCached()).isTrue();
        assertThat(TongsuoEngine.provider().getClass().getClassLoader()).isInstanceOf(TongsuoLoader.class);
    }
}
