package org.trustload.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void interpolatesAsTheDashboardDoesWhereNearestRankWouldNot() {
        // 100 values 1..100 plus an outlier: LEGACY puts p99 at position 0.99 * 102 = 100.98
        long[] v = new long[101];
        for (int i = 0; i < 100; i++) {
            v[i] = i + 1;
        }
        v[100] = 200;
        Percentiles p = Percentiles.of(v, v.length);
        assertThat(p.get(99)).isCloseTo(100 + 0.98 * (200 - 100), within(1e-9));
        assertThat(p.get(50)).isCloseTo(51, within(1e-9));
        assertThat(p.min()).isEqualTo(1);
        assertThat(p.max()).isEqualTo(200);
    }

    @Test
    void extremesClampToTheSmallestAndLargestValue() {
        Percentiles p = Percentiles.of(new long[] {7, 3, 5}, 3);
        assertThat(p.get(1)).isEqualTo(3);
        assertThat(p.get(100)).isEqualTo(7);
        assertThat(Percentiles.of(new long[0], 0).get(50)).isNaN();
    }

    @Test
    void usesOnlyTheGivenCountOfABuffer() {
        long[] buffer = {1, 2, 3, 1000, 1000};
        assertThat(Percentiles.of(buffer, 3).max()).isEqualTo(3);
    }

    @Test
    void theMedianOfRoundsIsTheMiddleOrTheMeanOfTheTwoMiddleValues() {
        assertThat(Percentiles.median(java.util.List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Percentiles.median(java.util.List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
        assertThat(Percentiles.median(java.util.List.of(Double.NaN, 5.0))).isEqualTo(5.0);
        assertThat(Percentiles.median(java.util.List.of())).isNaN();
    }

    @Test
    void fromCountsEqualsTheEstimatorOverEveryValueBitForBit() {
        java.util.Random random = new java.util.Random(41);
        double[] ps = {0.001, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 100};
        for (int round = 0; round < 300; round++) {
            int n = round < 5 ? round + 1 : 1 + random.nextInt(round < 150 ? 50 : 5000);
            int spread = 1 + random.nextInt(round % 3 == 0 ? 3 : 400);
            long[] all = new long[n];
            java.util.TreeMap<Long, Long> counts = new java.util.TreeMap<>();
            for (int i = 0; i < n; i++) {
                all[i] = random.nextInt(spread);
                counts.merge(all[i], 1L, Long::sum);
            }
            long[] values = counts.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] times = counts.values().stream().mapToLong(Long::longValue).toArray();
            Percentiles exact = Percentiles.of(all, n);
            for (double p : ps) {
                assertThat(Percentiles.ofCounts(values, times, p)).as("n=%d p=%s", n, p).isEqualTo(exact.get(p));
            }
        }
        assertThat(Percentiles.ofCounts(new long[0], new long[0], 50)).isNaN();
    }
}
