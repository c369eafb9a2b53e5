package org.trustload.lab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;

/** The http service serves its pages on 127.0.0.1 with keep-alive, and refuses what it does not serve. */
class HttpLabServiceTest {

    @TempDir
    Path socketDir;

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<byte[]> send(String method, String url) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void servesEveryPageWithItsSizeAndAnswersUnknownPathsAndMethodsWithErrors() throws Exception {
        LabContext ctx = new LabContext(TestPorts.freeBase(), 0, socketDir);
        try (HttpLabService http = new HttpLabService()) {
            http.start(ctx);
            assertThat(http.properties()).containsEntry("http.host", "127.0.0.1")
                    .containsEntry("http.protocol", "http")
                    .containsEntry("http.port", String.valueOf(ctx.port(HttpLabService.HTTP_OFFSET)));
            String base = "http://127.0.0.1:" + http.properties().get("http.port");
            for (var page : HttpLabService.PAGES.entrySet()) {
                HttpResponse<byte[]> r = send("GET", base + page.getKey());
                assertThat(r.statusCode()).as(page.getKey()).isEqualTo(200);
                assertThat(r.body()).as(page.getKey()).isEqualTo(page.getValue());
            }
            assertThat(HttpLabService.PAGES.get("/64b")).hasSize(64);
            assertThat(HttpLabService.PAGES.get("/1k")).hasSize(1024);
            assertThat(HttpLabService.PAGES.get("/100k")).hasSize(102_400);
            assertThat(new String(HttpLabService.PAGES.get("/"))).startsWith("<!DOCTYPE html>");
            assertThat(send("HEAD", base + "/1k").statusCode()).isEqualTo(200);
            assertThat(send("GET", base + "/nosuch").statusCode()).isEqualTo(404);
            HttpResponse<byte[]> post = send("POST", base + "/");
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        }
    }

    @Test
    void aTakenPortIsReportedAsInUse() throws Exception {
        LabContext ctx = new LabContext(TestPorts.freeBase(), 0, socketDir);
        try (HttpLabService first = new HttpLabService(); HttpLabService second = new HttpLabService()) {
            first.start(ctx);
            assertThatThrownBy(() -> second.start(ctx)).isInstanceOf(EndpointInUseException.class)
                    .hasMessageContaining("(http)");
        }
    }
}
