package org.trustload.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The summary's arithmetic on known inputs. */
class StatsSummaryTest {

    private static JstatGc jstat(double ygc, double ygct, double fgc, double fgct) {
        return new JstatGc(new double[] {0, 1024, 0, 512.5, 20480, 1000, 40960, 3000.25, 5000, 4800, 600, 550,
            ygc, ygct, fgc, fgct, Double.NaN, Double.NaN, ygct + fgct});
    }

    @Test
    void hhmmssIsPsStyleAndNeverMs() {
        assertThat(StatsSummary.hhmmss(153_000)).isEqualTo("00:02:33");
        assertThat(StatsSummary.hhmmss(6_968_999)).isEqualTo("01:56:08");
        assertThat(StatsSummary.hhmmss(0)).isEqualTo("00:00:00");
        assertThat(StatsSummary.hhmmss(999)).isEqualTo("00:00:00");
        assertThat(StatsSummary.hhmmss(90_061_000)).isEqualTo("25:01:01");
        assertThat(StatsSummary.hhmmss(Double.NaN)).isEqualTo("-");
    }

    @Test
    void theOnapReportsFiguresComeOutInSecondsAndMs() throws Exception {
        // ps: 00:02:33 before, 01:56:08 after, 40,000 decisions: 6815 s, ~170 ms per request
        StatsSnapshot a = StatsSnapshot.builder(0).cpuMs(153_000).jstat(jstat(10, 0.5, 1, 0.2)).build();
        StatsSnapshot b = StatsSnapshot.builder(1).cpuMs(6_968_000).jstat(jstat(110, 2.5, 3, 1.2)).build();
        StatsSummary s = new StatsSummary("pdp", a, b, 40_000, "");
        assertThat(s.cpuUsedMs()).isEqualTo(6_815_000.0);
        assertThat(s.cpuPerRequestMs()).isEqualTo(170.375);
        assertThat(s.youngGcs()).isEqualTo(100);
        assertThat(s.youngGcAvgMs()).isEqualTo(20.0);
        assertThat(s.fullGcs()).isEqualTo(2);
        assertThat(s.fullGcAvgMs()).isEqualTo(500.0);
        String text = s.toText();
        assertThat(text).contains("CPU time at start  153000.0 ms (00:02:33)",
                "CPU time at end    6968000.0 ms (01:56:08)",
                "CPU used           6815000.0 ms (01:53:35)",
                "40000 (transaction-controller rows, setUp and tearDown excluded)",
                "CPU per request    170.375 ms", "young GCs          100, 2000.0 ms, avg 20.000 ms",
                "full GCs           2, 1000.0 ms, avg 500.000 ms");
        assertThat(text).containsPattern(
                "S0C +S1C +S0U +S1U +EC +EU +OC +OU +MC +MU +CCSC +CCSU +YGC +YGCT +FGC +FGCT +CGC +CGCT +GCT")
                .containsPattern("before +0\\.0 +1024\\.0 +0\\.0 +512\\.5 .* 10 +0\\.500 +1 +0\\.200 +- +- +0\\.700")
                .containsPattern("after .* 110 +2\\.500 +3 +1\\.200 +- +- +3\\.700");
        JsonNode j = new ObjectMapper().readTree(s.toJson());
        assertThat(j.get("cpuUsedMs").asDouble()).isEqualTo(6_815_000.0);
        assertThat(j.get("cpuUsedHms").asText()).isEqualTo("01:53:35");
        assertThat(j.get("cpuPerRequestMs").asDouble()).isEqualTo(170.375);
        assertThat(j.get("youngGcCount").asLong()).isEqualTo(100);
        assertThat(j.get("jstatAfter").get("OU").asDouble()).isEqualTo(3000.25);
        assertThat(j.get("jstatAfter").get("CGC").isNull()).isTrue();
    }

    @Test
    void noRequestsOrNoGcGiveDashesNotNaNs() throws Exception {
        StatsSnapshot a = StatsSnapshot.builder(0).cpuMs(10).build();
        StatsSnapshot b = StatsSnapshot.builder(1).cpuMs(20).build();
        StatsSummary s = new StatsSummary("process", a, b, 0, "target disappeared");
        assertThat(s.toText()).contains("note: target disappeared", "CPU per request    - ms", "young GCs          -, ")
                .contains("jstat -gc columns: not available").doesNotContain("NaN");
        assertThat(new ObjectMapper().readTree(s.toJson()).get("cpuPerRequestMs").isNull()).isTrue();
        StatsSummary none = new StatsSummary("x", null, null, 5, "cannot watch");
        assertThat(none.toText()).doesNotContain("NaN");
    }
}
