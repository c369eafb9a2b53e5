package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.trustload.harness.results.Jtl;
import org.trustload.lab.http.HttpLabService;
import org.trustload.testing.TestHttpServer;

/**
 * The stock HTTP plan fails an HTTP 200 that carries no page: its Response Assertion ("The answer is a page")
 * fails an empty answer and a cut HTML page (the faults bench's garbage, {@code <html>} alone) and passes the
 * lab's pages of every kind (an HTML page, the fixed-size bodies, plain text). One run of {@code http-100x10},
 * one thread, against a real server on 127.0.0.1 that gives those answers in turn.
 */
class HttpGarbageAnswerIT {

    private static final Path OUT = Plans.DIR.resolve("target/http-garbage");

    private static final String NOT_A_PAGE = "the answer is empty or not a whole page (http.expect)";

    /**
     * What the server answers, in turn; {@code good} says whether the plan must take it for a page, {@code failure}
     * what a failed sample says (JMeter's Response Assertion has its own words for an empty answer).
     */
    record Answer(String what, String type, byte[] body, boolean good, String failure) {
        Answer(String what, String type, byte[] body, boolean good) {
            this(what, type, body, good, good ? "" : NOT_A_PAGE);
        }
    }

    private static final List<Answer> ANSWERS = List.of(
            new Answer("garbage <html>", "text/html", "<html>".getBytes(StandardCharsets.US_ASCII), false),
            new Answer("empty", "text/html", new byte[0], false, "Response was null"),
            new Answer("a lab page", "text/html; charset=utf-8", HttpLabService.PAGES.get("/pages/7.html"), true),
            new Answer("the lab's /64b", "application/octet-stream", HttpLabService.PAGES.get("/64b"), true),
            new Answer("the lab's index", "text/html; charset=utf-8", HttpLabService.PAGES.get("/"), true),
            new Answer("plain text", "text/plain", "ok\n".getBytes(StandardCharsets.US_ASCII), true),
            new Answer("a cut page", "text/html", "<!DOCTYPE html>\n<html><head><title>x</title></head><body>"
                    .getBytes(StandardCharsets.US_ASCII), false));

    @Test
    void anEmptyOrCutAnswerWithStatus200IsAFailedSampleAndEveryLabPageIsNot() throws Exception {
        Files.createDirectories(OUT);
        AtomicInteger n = new AtomicInteger();
        try (TestHttpServer server = new TestHttpServer().on("/", (body, ex) -> {
            Answer a = ANSWERS.get(n.getAndIncrement() % ANSWERS.size());
            TestHttpServer.reply(ex, 200, a.type(), a.body());
        })) {
            int loops = 2 * ANSWERS.size();
            Plans.runWithoutReport(Plans.DIR.resolve("http/http-100x10.jmx"), OUT, List.of("-Jhttp.host=127.0.0.1",
                    "-Jhttp.port=" + server.uri("/").getPort(), "-Jhttp.path=/page", "-Jthreads=1",
                    "-Jloops=" + loops, "-Jduration=120"), Duration.ofMinutes(3));
            List<Jtl.Sample> samples = Jtl.read(OUT.resolve("results.jtl"));
            assertThat(samples).as("one sample per request, see " + OUT).hasSize(loops);
            for (int i = 0; i < samples.size(); i++) {
                Answer a = ANSWERS.get(i % ANSWERS.size());
                Jtl.Sample s = samples.get(i);
                assertThat(s.responseCode()).as(a.what()).isEqualTo("200");
                assertThat(s.success()).as(a.what() + ": " + s.failureMessage()).isEqualTo(a.good());
                if (!a.good()) {
                    assertThat(s.failureMessage()).as(a.what()).isEqualTo(a.failure());
                }
            }
        }
    }
}
