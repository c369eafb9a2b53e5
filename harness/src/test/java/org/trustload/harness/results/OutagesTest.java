package org.trustload.harness.results;

import org.trustload.harness.results.Outages;
import org.trustload.harness.results.Summary;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutagesTest {

    private static final String REFUSED = "connectError LDAP 91 connectError: connection refused";

    @Test
    void aServerRestartIsOneOutageFromTheLastSuccessToTheFirstSuccessAfter() {
        Outages o = new Outages();
        // two threads searching every 100 ms; the server goes at 10,000 and answers again from 16,500
        for (long t = 9_000; t < 20_000; t += 100) {
            for (int thread = 0; thread < 2; thread++) {
                long start = t + thread * 50;
                boolean down = start >= 10_000 && start < 16_500;
                o.add("search", start, 2, !down, down ? REFUSED : null);
            }
        }
        assertThat(o.all()).singleElement().satisfies(x -> {
            assertThat(x.label()).isEqualTo("search");
            assertThat(x.from()).as("the first failure's start (the last success ended before)").isEqualTo(10_000);
            assertThat(x.firstFailure()).isEqualTo(10_000);
            assertThat(x.lastFailure()).isEqualTo(16_450 + 2);
            assertThat(x.recovered()).isEqualTo(16_500 + 2);
            assertThat(x.failed()).isEqualTo(130);
            assertThat(x.durationMs()).isEqualTo(6_502);
            assertThat(x.recoveryAfterLastFailureMs()).isEqualTo(50);
            assertThat(x.example()).isEqualTo(REFUSED);
        });
        assertThat(o.longestMs()).isEqualTo(6_502);
    }

    @Test
    void aHungServerStartsTheWindowWhenTheLastSuccessEndedNotWhenTheTimedOutSamplesStarted() {
        Outages o = new Outages();
        o.add("sign", 1_000, 20, true, null);
        // started at 1,010 while the last success was still running; failed at its 5-s response timeout
        o.add("sign", 1_010, 5_000, false, "java.net.SocketTimeoutException Read timed out");
        o.add("sign", 6_010, 5_000, false, "java.net.SocketTimeoutException Read timed out");
        o.add("sign", 11_010, 30, true, null);
        assertThat(o.all()).singleElement().satisfies(x -> {
            assertThat(x.from()).isEqualTo(1_020);
            assertThat(x.firstFailure()).isEqualTo(1_010);
            assertThat(x.recovered()).isEqualTo(11_040);
            assertThat(x.failed()).isEqualTo(2);
        });
    }

    @Test
    void scatteredErrorsAmongSuccessesAreNoOutageAndASlowFailureOverlappedBySuccessesIsNoneEither() {
        Outages o = new Outages();
        for (long t = 0; t < 10_000; t += 10) {
            o.add("get", t, 5, t % 500 != 0, "500 Internal Server Error");
        }
        // one request timed out after 3 s while the others kept succeeding around it
        o.add("get", 2_001, 3_000, false, "timeout");
        assertThat(o.all()).isEmpty();
        assertThat(o.longestMs()).isZero();
        assertThat(o.text()).isEmpty();
    }

    @Test
    void anOutageStillOpenWhenTheRunEndedIsNotRecoveredAndLabelsAreJudgedApart() {
        Outages o = new Outages();
        o.add("a", 0, 10, true, null);
        o.add("b", 0, 10, true, null);
        for (long t = 100; t < 3_000; t += 100) {
            o.add("a", t, 10, false, "refused");
            o.add("b", t + 5, 1, t >= 2_000, "refused");
        }
        assertThat(o.all()).extracting(Outages.Outage::label).containsExactly("a", "b");
        Outages.Outage a = o.all().get(0);
        assertThat(a.isRecovered()).isFalse();
        assertThat(a.durationMs()).isEqualTo(2_910 - 100);
        assertThat(a.recoveryAfterLastFailureMs()).isEqualTo(-1);
        Outages.Outage b = o.all().get(1);
        assertThat(b.isRecovered()).isTrue();
        assertThat(b.recovered()).isEqualTo(2_006);
        assertThat(o.longestMsEndingAfter(2_500)).as("only a ended after 2,500").isEqualTo(2_810);
        String text = o.text().replaceAll("\\s+", " ");
        assertThat(text).contains("a: 00:00:00.100 to the end of the run, 2.81 s, 29 failed samples")
                .contains("NOT RECOVERED by the end of the run")
                .contains("b: 00:00:00.105 to 00:00:02.006, 1.90 s, 19 failed samples")
                .contains("first success 0.10 s after the last failure (refused)");
        assertThat(o.text().lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(Summary.WIDTH));
    }

    @Test
    void theSummaryNamesTheOutageAndItsSteadyWindowMeasuresIt(@TempDir Path dir) throws Exception {
        StringBuilder jtl = new StringBuilder("timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
                + "dataType,"
                + "success,failureMessage,bytes\n");
        for (long t = 1_000; t < 12_000; t += 50) {
            boolean down = t >= 4_000 && t < 9_000;
            jtl.append(t).append(",1,search,").append(down ? "connectError,LDAP 91 connectError: connection refused"
                    : "200,ok").append(",G 1-1,text,").append(!down).append(",,1\n");
        }
        Path file = dir.resolve("results.jtl");
        Files.writeString(file, jtl);
        Summary s = Summary.of(file);
        assertThat(s.outages().all()).singleElement().satisfies(x -> assertThat(x.failed()).isEqualTo(100));
        assertThat(s.errorTable().replaceAll("\\s+", " "))
                .contains("Outages (every sample of a label failing for 1 s or more")
                .contains("search: 00:00:04.000 to 00:00:09.001, 5.00 s, 100 failed samples");
        assertThat(s.steady(0).measured().outageMs()).isEqualTo(5_001);
        assertThat(s.steady(9_000).measured().outageMs()).as("the outage ended before the steady window").isZero();
        assertThat(org.trustload.slo.Objective.parse("outage<=5s").broken(s.steady(0).measured()))
                .containsExactly("outage 5.00 s > 5 s");
    }
}
