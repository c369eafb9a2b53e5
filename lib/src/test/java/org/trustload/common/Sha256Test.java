package org.trustload.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Sha256Test {

    /** FIPS 180-2's example "abc". */
    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void aFileAndItsBytesHaveTheStandardsDigestInLowerCaseHex(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("abc.txt"), "abc");
        assertThat(Sha256.ofFile(file)).isEqualTo(ABC);
        assertThat(Sha256.of("abc".getBytes(StandardCharsets.US_ASCII))).isEqualTo(ABC);
    }
}
