package org.trustload.labkit.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class SamplePdfTest {

    @Test
    void theScenarioDocumentIsWithinTwoPercentOf137KiBAndTheSameEveryTime() {
        byte[] a = SamplePdf.generate(SamplePdf.SCENARIO_BYTES);
        assertThat(a.length).isBetween((int) (SamplePdf.SCENARIO_BYTES * 0.98),
                (int) (SamplePdf.SCENARIO_BYTES * 1.02));
        assertThat(SamplePdf.generate(SamplePdf.SCENARIO_BYTES)).isEqualTo(a);
    }

    @Test
    void theDocumentDoesNotDependOnTheDefaultLocale() {
        byte[] root = SamplePdf.generate(20_000);
        Locale before = Locale.getDefault();
        try {
            // Arabic-Indic digits from String.format would not be in Helvetica's encoding
            Locale.setDefault(Locale.forLanguageTag("ar-EG"));
            assertThat(SamplePdf.generate(20_000)).isEqualTo(root);
        } finally {
            Locale.setDefault(before);
        }
    }
}
