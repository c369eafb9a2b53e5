package org.trustload.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabDirTest {

    @TempDir
    Path tmp;

    @Test
    void aSecondLabTakesTheNextDefaultDirectoryAndTheFirstComesBackWhenFree() throws Exception {
        Path first = LabDir.defaultDir(tmp);
        try (LabDir a = LabDir.takeDefault(tmp)) {
            assertThat(a.path()).isEqualTo(first);
            assertThat(Files.readString(first.resolve(LabDir.LOCK_FILE)).strip())
                    .isEqualTo(String.valueOf(ProcessHandle.current().pid()));
            try (LabDir b = LabDir.takeDefault(tmp)) {
                assertThat(b.path()).isEqualTo(first.resolveSibling(first.getFileName() + "-2"));
            }
        }
        try (LabDir again = LabDir.takeDefault(tmp)) {
            assertThat(again.path()).isEqualTo(first);
        }
    }

    @Test
    void anExplicitDirectoryHeldByAnotherLabIsRefused() throws Exception {
        Path dir = tmp.resolve("s");
        try (LabDir a = LabDir.take(dir)) {
            assertThatThrownBy(() -> LabDir.take(dir)).isInstanceOf(EndpointInUseException.class)
                    .hasMessageContaining("--socket-dir " + dir)
                    .hasMessageContaining("held by the running lab, pid " + ProcessHandle.current().pid());
        }
        LabDir.take(dir).close();
    }
}
