package org.trustload.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ObjectiveTest {

    /** A window with these response times, errors and server CPU; percentiles nearest-rank (the rules only compare). */
    private static Objective.Measured window(long errors, double serverCpu, double... ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        return new Objective.Measured() {
            public long samples() {
                return sorted.length;
            }

            public long errors() {
                return errors;
            }

            public double percentile(double p) {
                return sorted[Math.max(0, (int) Math.ceil(p / 100 * sorted.length) - 1)];
            }

            public double mean() {
                return Arrays.stream(sorted).average().orElse(Double.NaN);
            }

            public double max() {
                return sorted[sorted.length - 1];
            }

            public double serverCpuPct() {
                return serverCpu;
            }
        };
    }

    @Test
    void readsEveryRuleKindWithUnits() {
        Objective o = Objective.parse("p99<=500ms, p95 < 0.2s ,avg<=50,max<=2s,errors<=1%,server.cpu<=90%,p99.9<=1s");
        assertThat(o.rules()).extracting(Objective.Rule::name)
                .containsExactly("p99", "p95", "avg", "max", "errors", "server.cpu", "p99.9");
        assertThat(o.rules()).extracting(Objective.Rule::limit)
                .containsExactly(500.0, 200.0, 50.0, 2000.0, 1.0, 90.0, 1000.0);
        assertThat(o.errorBudgetPct()).isEqualTo(1.0);
        assertThat(o.withoutServerRules().toString()).doesNotContain("server.cpu").contains("p99<=500ms");
        assertThat(Objective.parse("server.cpu<=80%").withoutServerRules()).isNull();
    }

    @Test
    void anOutageRuleTakesSecondsOrMillisecondsAndIsJudgedOnlyWhereItIsMeasured() {
        Objective o = Objective.parse("outage<=5s,errors<=50%");
        assertThat(o.rules()).extracting(Objective.Rule::name).containsExactly("outage", "errors");
        assertThat(o.rules().get(0).limit()).isEqualTo(5000.0);
        assertThat(Objective.parse("outage<1500ms").rules().get(0).limit()).isEqualTo(1500.0);
        assertThatThrownBy(() -> Objective.parse("outage<=5%")).hasMessageContaining("a time takes ms or s");
        Objective.Measured base = window(1, Double.NaN, 10, 20, 30);
        assertThat(o.broken(base)).as("not measured (inside JMeter, a sizing step): never broken").isEmpty();
        assertThat(o.broken(withOutage(base, 4999))).isEmpty();
        assertThat(o.broken(withOutage(base, 6330))).containsExactly("outage 6.33 s > 5 s");
        assertThat(o.withoutServerRules().toString()).as("SLO Stop cannot judge an outage as it runs")
                .isEqualTo("errors<=50%");
    }

    private static Objective.Measured withOutage(Objective.Measured m, double outageMs) {
        return new Objective.Measured() {
            public long samples() {
                return m.samples();
            }

            public long errors() {
                return m.errors();
            }

            public double percentile(double p) {
                return m.percentile(p);
            }

            public double mean() {
                return m.mean();
            }

            public double max() {
                return m.max();
            }

            public double serverCpuPct() {
                return m.serverCpuPct();
            }

            @Override
            public double outageMs() {
                return outageMs;
            }
        };
    }

    @Test
    void saysWhichRuleBrokeWithTheObservedValue() {
        Objective o = Objective.parse("p99<=500ms,errors<=1%,server.cpu<=90%");
        assertThat(o.broken(window(0, 50, 10, 20, 30))).isEmpty();
        assertThat(o.broken(window(1, 95, 10, 20, 812))).containsExactly("p99 812 ms > 500 ms", "errors 33.33% > 1%",
                "server.cpu 95% > 90%");
        assertThat(o.broken(window(0, Double.NaN, 10))).as("an unwatched server breaks no CPU rule").isEmpty();
    }

    @Test
    void badRulesAreReadableErrors() {
        assertThatThrownBy(() -> Objective.parse("")).hasMessageContaining("at least one rule");
        assertThatThrownBy(() -> Objective.parse("p99>=5ms")).hasMessageContaining("cannot read the rule 'p99>=5ms'");
        assertThatThrownBy(() -> Objective.parse("errors<=5ms")).hasMessageContaining("a percentage");
        assertThatThrownBy(() -> Objective.parse("p99<=5%")).hasMessageContaining("ms or s");
        assertThatThrownBy(() -> Objective.parse("errors<=150%")).hasMessageContaining("more than 100%");
        assertThatThrownBy(() -> Objective.parse("p0<=5ms")).hasMessageContaining("between 0 and 100");
    }
}
