package org.trustload.jmeter.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.trustload.common.ClientException;

class ParsedOnChangeTest {

    @Test
    void parsesOnceWhileTheInputsStayEqualAndAgainWhenOneChanges() throws Exception {
        ParsedOnChange<String> p = new ParsedOnChange<>();
        AtomicInteger parses = new AtomicInteger();
        Object client = new Object();
        assertThat(p.get(new Object[] {client, "search", "sub"}, () -> "v" + parses.incrementAndGet())).isEqualTo("v1");
        assertThat(p.get(new Object[] {client, "search", "sub"}, () -> "v" + parses.incrementAndGet())).isEqualTo("v1");
        assertThat(p.get(new Object[] {client, "search", "one"}, () -> "v" + parses.incrementAndGet())).isEqualTo("v2");
        assertThat(p.get(new Object[] {new Object(), "search", "one"}, () -> "v" + parses.incrementAndGet()))
                .isEqualTo("v3");
        p.clear();
        assertThat(p.get(new Object[] {client, "search", "one"}, () -> "v" + parses.incrementAndGet())).isEqualTo("v4");
    }

    @Test
    void aFailedParseKeepsNothingSoTheSameBadInputsFailAgain() throws Exception {
        ParsedOnChange<String> p = new ParsedOnChange<>();
        AtomicInteger parses = new AtomicInteger();
        Object[] good = {"search"};
        Object[] bad = {"modrdn"};
        p.get(good, () -> "ok");
        ParsedOnChange.Parser<String> failing = () -> {
            parses.incrementAndGet();
            throw ClientException.config("operation", "", "unknown operation 'modrdn'", null);
        };
        assertThatThrownBy(() -> p.get(bad, failing)).isInstanceOf(ClientException.class);
        assertThatThrownBy(() -> p.get(bad, failing)).isInstanceOf(ClientException.class);
        assertThat(parses).hasValue(2);
        assertThat(p.get(good, () -> "again")).isEqualTo("again");
    }
}
