package org.trustload.lab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TallyTest {

    @Test
    void theStopLineSaysHowManyDistinctNamesTheRequestsAskedForMostAskedFirst() {
        Tally t = new Tally();
        assertThat(t.line("kms aws", "requests", "keys")).isEmpty();
        for (String k : new String[] {"b", "a", "b", "c", "b", "a", "d", "e", "f"}) {
            t.add(k);
        }
        assertThat(t.total()).isEqualTo(9);
        assertThat(t.distinct()).isEqualTo(6);
        assertThat(t.line("kms aws", "requests", "keys"))
                .isEqualTo("trustload-lab: kms aws: 9 requests named 6 distinct keys (most asked: b 3, a 2, c"
                        + " 1, d 1, e 1, ...)");
    }
}
