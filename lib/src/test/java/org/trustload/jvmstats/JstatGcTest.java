package org.trustload.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Formatting as jstat prints (java.text.DecimalFormat, half to even), not as String.format rounds. */
class JstatGcTest {

    private static JstatGc with(String column, double value) {
        double[] v = new double[JstatGc.COLUMNS.size()];
        Arrays.fill(v, Double.NaN);
        v[JstatGc.COLUMNS.indexOf(column)] = value;
        return new JstatGc(v);
    }

    @Test
    void kilobytesRoundHalfToEvenLikeJstat() {
        // 155,904 bytes = 152.25 KB: jstat printed 152.2 where String.format gives 152.3 (seen in ci/test)
        assertThat(with("MU", 155_904 / 1024.0).format("MU")).isEqualTo("152.2");
        assertThat(with("MU", 152.75).format("MU")).isEqualTo("152.8");
        assertThat(with("EU", 1024).format("EU")).isEqualTo("1024.0");
    }

    @Test
    void secondsWithThreeDecimalsCountsWholeAbsentAsDash() {
        assertThat(with("GCT", 0.0625).format("GCT")).isEqualTo("0.062");
        assertThat(with("YGC", 7).format("YGC")).isEqualTo("7");
        assertThat(with("YGC", 7).format("CGC")).isEqualTo("-");
    }
}
