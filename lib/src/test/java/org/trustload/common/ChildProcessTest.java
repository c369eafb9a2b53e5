package org.trustload.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {

    @TempDir
    Path dir;

    private static List<String> bash(String script) {
        return List.of("bash", "-c", script);
    }

    @Test
    void isReadyOnItsReadyLineRunsInItsDirectoryAndStopsOnClose() throws Exception {
        Path work = dir.resolve("work");
        try (ChildProcess c = ChildProcess.start("the server", bash("pwd; echo 'READY on 1234'; exec sleep 600"), work,
                dir.resolve("logs/server.log"), "READY", Duration.ofMinutes(2))) {
            assertThat(c.readyLine()).isEqualTo("READY on 1234");
            assertThat(c.isAlive()).isTrue();
            c.close();
            assertThat(c.isAlive()).isFalse();
            assertThat(c.exitReport("the server")).contains("the server exited with status 143 = killed by signal 15",
                    "server log: " + dir.resolve("logs/server.log"));
        }
        assertThat(Files.readAllLines(dir.resolve("logs/server.log"))).containsExactly(work.toAbsolutePath().toString(),
                "READY on 1234");
    }

    @Test
    void exitBeforeReadyIsNotExecutedWithTheLogsTail() {
        assertThatThrownBy(() -> ChildProcess.start("the lab", bash("echo 'no such option'; exit 3"), null,
                dir.resolve("lab.log"), "READY", Duration.ofMinutes(2)))
                .isInstanceOf(ChildProcess.NotReady.class)
                .hasMessageContaining("the lab exited (status 3) before it was ready")
                .hasMessageContaining("no such option");
    }

    @Test
    void silenceUntilTheTimeoutStopsIt() {
        assertThatThrownBy(() -> ChildProcess.start("DSS", bash("echo starting; exec sleep 600"), null,
                dir.resolve("dss.log"), "READY", Duration.ofMillis(300)))
                .isInstanceOf(ChildProcess.NotReady.class)
                .hasMessageContaining("DSS was not ready within 0 s")
                .hasMessageContaining("starting");
    }

    @Test
    void isReadyOnceItsCheckHoldsAfterItsReadyLineWithItsEnvironmentAndEveryLineToTheListener() throws Exception {
        Path flag = dir.resolve("flag");
        List<String> seen = new CopyOnWriteArrayList<>();
        try (ChildProcess c = ChildProcess.launch("the engine",
                bash("echo \"READY $WORD\"; touch " + flag + "; echo more; exec sleep 600"),
                null, Map.of("WORD", "here"), null, "READY", seen::add)) {
            assertThat(c.awaitReady(() -> Files.exists(flag), Duration.ofMinutes(2))).isTrue();
            assertThat(c.readyLine()).isEqualTo("READY here");
        }
        assertThat(seen).containsExactly("READY here", "more");
    }

    @Test
    void exitBeforeItsCheckHoldsIsNotReadyAndWaitForSaysItExited() throws Exception {
        try (ChildProcess c = ChildProcess.launch("keytool", bash("echo READY; exit 4"), null, Map.of(),
                dir.resolve("k.log"), "READY",
                line -> { })) {
            assertThat(c.awaitReady(() -> false, Duration.ofMinutes(2))).isFalse();
            assertThat(c.waitFor(Duration.ofMinutes(2))).isTrue();
            assertThat(c.exitValue()).isEqualTo(4);
            assertThat(c.tail()).contains("READY");
        }
    }
}
