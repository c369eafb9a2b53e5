package org.trustload.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The parts of {@link Slapd} that need no slapd binary. */
class SlapdTest {

    @Test
    void ldapiUrlPercentEncodesSlashesAndOddCharacters() {
        assertThat(Slapd.ldapiUrl(Path.of("/tmp/sl123/ldapi"))).isEqualTo("ldapi://%2Ftmp%2Fsl123%2Fldapi/");
        assertThat(Slapd.ldapiUrl(Path.of("/tmp/a b:c"))).isEqualTo("ldapi://%2Ftmp%2Fa%20b%3Ac/");
    }

    @Test
    void optionsDefaultsAndValidation() {
        Slapd.Options d = Slapd.Options.defaults();
        assertThat(d.entries()).isEqualTo(10_000);
        assertThat(d.openFilesLimit()).isEqualTo(4096);
        assertThat(d.tls()).isTrue();
        Slapd.Options o = d.withEntries(5).withOpenFilesLimit(1024).withTls(false);
        assertThat(o.entries()).isEqualTo(5);
        assertThat(o.openFilesLimit()).isEqualTo(1024);
        assertThat(o.tls()).isFalse();
        assertThat(d.entries()).isEqualTo(10_000);
        assertThatThrownBy(() -> d.withEntries(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> d.withOpenFilesLimit(10)).isInstanceOf(IllegalArgumentException.class);
    }
}
