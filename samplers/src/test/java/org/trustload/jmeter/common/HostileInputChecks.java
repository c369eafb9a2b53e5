package org.trustload.jmeter.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.params.provider.Arguments;
import org.trustload.testing.HostileInputs;

/**
 * What every element must do with the generated corpus of bad input ({@link HostileInputs}) in any of its text
 * properties: the sample ends, bounded by the timeouts; a success, or one clear failure (a configuration error or a
 * stable code, never an unmapped exception) with a short message and one readable cause, no stack trace, and no
 * password or key echoed back.
 */
public final class HostileInputChecks {

    private HostileInputChecks() {
    }

    /** Every {@code set*(String)} of {@code types} (by its property name) with every input of the corpus. */
    public static Stream<Arguments> everyTextProperty(Class<?>... types) {
        List<Arguments> out = new ArrayList<>();
        java.util.Set<String> seen = new java.util.TreeSet<>();
        for (Class<?> t : types) {
            for (java.lang.reflect.Method m : t.getMethods()) {
                if (m.getName().startsWith("set") && m.getParameterCount() == 1
                        && m.getParameterTypes()[0] == String.class
                        && !m.getName().equals("setName") && !m.getName().equals("setComment")
                                && seen.add(m.getName())) {
                    for (HostileInputs.Input in : HostileInputs.corpus()) {
                        out.add(Arguments.of(m.getName().substring(3), in));
                    }
                }
            }
        }
        return out.stream();
    }

    /** The checks on one sample that took {@code tookMs}; {@code secrets} must not appear in any of its fields. */
    public static void assertOneClearOutcome(SampleResult res, long tookMs, String property, HostileInputs.Input input,
                                             String... secrets) {
        String where = property + " = " + input.name() + ": ";
        assertThat(tookMs).as(where + "bounded by the timeouts, no hang").isLessThan(60_000);
        if (!res.isSuccessful()) {
            String m = res.getResponseMessage();
            String body = res.getResponseDataAsString();
            assertThat(res.getResponseCode()).as(where + "a mapped failure, not an unexpected exception: " + m + ": "
                    + body.substring(0, Math.min(300, body.length())))
                    .isNotEqualTo(SampleFailures.CLIENT_ERROR);
            assertThat(m.length()).as(where + "a short, stable message: " + m.substring(0, Math.min(160, m.length())))
                    .isLessThan(1000);
            assertThat(body.length()).as(where + "one readable cause").isLessThan(4000);
        }
        assertThat(res.getResponseDataAsString()).doesNotContain("\tat org.", "\tat java.");
        List<String> hidden = new ArrayList<>(List.of(secrets));
        String p = property.toLowerCase(Locale.ROOT);
        if ((p.contains("password") || p.contains("secret") || p.contains("credential")) && input.value().strip()
                .length() >= 8) {
            hidden.add(input.value());
        }
        for (String secret : hidden) {
            assertThat(Stream.of(res.getSamplerData(), res.getResponseHeaders(), res.getRequestHeaders(),
                    res.getResponseDataAsString(), res.getResponseMessage(), res.getResponseCode()))
                    .allSatisfy(field -> assertThat(String.valueOf(field)).as(where + "no secret echoed")
                            .doesNotContain(secret));
        }
    }
}
