package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.trustload.lab.http.HttpLabService;
import org.trustload.testing.Nginx;

/**
 * The HTTP plans against a real web server: Debian's nginx, started by the test on 127.0.0.1 with
 * the lab's pages. The 100 x 10 plan runs at its published scale; 1000 x 10 too (10,000 GETs, ~10 s
 * here), since the point of that scenario is whether the server keeps up with 1000 users.
 */
class HttpPlansNginxIT {

    private static final Path OUT = Plans.DIR.resolve("target/nginx-runs");

    @Test
    void http100x10AndHttp1000x10RunAgainstNginxWithoutErrorsThroughTheHostPortAndUrlProperties() throws Exception {
        Nginx.assumeOrFailInCi();
        try (Nginx nginx = Nginx.start(HttpLabService.PAGES)) {
            Path dir = Plans.run(Plans.DIR.resolve("http/http-100x10.jmx"), OUT.resolve("http-100x10"),
                    List.of("-Jhttp.host=" + nginx.host(), "-Jhttp.port=" + nginx.port(), "-Jhttp.path=/1k"),
                    Duration.ofMinutes(3)).dir();
            JsonNode total = Plans.statistics(dir).path("Total");
            assertThat(total.path("sampleCount").asLong()).isEqualTo(1_000);
            assertThat(total.path("errorCount").asLong()).as("errors, see " + dir).isZero();
            assertThat(total.path("receivedKBytesPerSec").asDouble()).as("the 1 KB page was received").isPositive();

            dir = Plans.run(Plans.DIR.resolve("http/http-1000x10.jmx"), OUT.resolve("http-1000x10"),
                    List.of("-Jhttp.url=http://" + nginx.host() + ":" + nginx.port() + "/index.html", "-Jrampup=2"),
                    Duration.ofMinutes(5)).dir();
            total = Plans.statistics(dir).path("Total");
            assertThat(total.path("sampleCount").asLong()).isEqualTo(10_000);
            assertThat(total.path("errorCount").asLong()).as("errors, see " + dir).isZero();
        }
    }

    @Test
    void aPathNginxDoesNotHaveIsCountedAsFailedSamples() throws Exception {
        Nginx.assumeOrFailInCi();
        try (Nginx nginx = Nginx.start(HttpLabService.PAGES)) {
            Path dir = Plans.run(Plans.DIR.resolve("http/http-100x10.jmx"), OUT.resolve("http-404"),
                    List.of("-Jhttp.host=" + nginx.host(), "-Jhttp.port=" + nginx.port(), "-Jhttp.path=/nosuch",
                            "-Jthreads=2", "-Jloops=2"),
                    Duration.ofMinutes(2)).dir();
            JsonNode total = Plans.statistics(dir).path("Total");
            assertThat(total.path("sampleCount").asLong()).isEqualTo(4);
            assertThat(total.path("errorCount").asLong()).isEqualTo(4);
        }
    }
}
