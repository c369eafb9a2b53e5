package org.trustload.lab.kms;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.Signature;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The KMS emulators' RSA keys kept in the lab's socket directory: written private once, loaded after. */
class KmsCryptoTest {

    @Test
    void anRsaKeyOfTheSocketDirectoryIsGeneratedOnceAndLoadedByTheNextLab(@TempDir Path dir) throws Exception {
        KeyPair first = KmsCrypto.rsa(2048, dir, "aws-rsa1");
        Path file = dir.resolve("aws-rsa1.pk8");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        KeyPair again = KmsCrypto.rsa(2048, dir, "aws-rsa1");
        assertThat(again.getPrivate().getEncoded()).isEqualTo(first.getPrivate().getEncoded());
        assertThat(again.getPublic()).isEqualTo(first.getPublic());
        // the loaded pair signs and verifies as one
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(again.getPrivate());
        s.update(new byte[] {1, 2, 3});
        byte[] sig = s.sign();
        s.initVerify(again.getPublic());
        s.update(new byte[] {1, 2, 3});
        assertThat(s.verify(sig)).isTrue();
        // a file that is not a key of that size is replaced by a new key
        Files.write(file, new byte[] {0x30, 0x00});
        assertThat(KmsCrypto.rsa(2048, dir, "aws-rsa1").getPrivate().getEncoded())
                .isNotEqualTo(first.getPrivate().getEncoded());
    }
}
