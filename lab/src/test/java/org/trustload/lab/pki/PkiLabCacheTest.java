package org.trustload.lab.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.trustload.lab.LabContext;
import org.trustload.lab.TestPorts;

/** The generated PKI is kept in {@code <socket-dir>/pki} and reused when the spec is the same. */
class PkiLabCacheTest {

    @TempDir
    Path socketDir;

    @Test
    void sameSpecLoadsTheCachedPkiOtherSpecRegenerates() throws Exception {
        int base = TestPorts.freeBase();
        java.util.Map<String, String> firstStore;
        try (PkiLabService s = new PkiLabService()) {
            s.start(new LabContext(base, 0, socketDir, 20));
            assertThat(s.pkiGenerated()).isTrue();
            assertThat(s.properties().get("pki.users")).isEqualTo("20");
            firstStore = certificates(s.properties());
        }
        long t0 = System.nanoTime();
        try (PkiLabService s = new PkiLabService()) {
            s.start(new LabContext(base, 0, socketDir, 20));
            System.err.printf(Locale.ROOT, "pki restart with a cached 20-user PKI: %d ms%n",
                    (System.nanoTime() - t0) / 1_000_000);
            assertThat(s.pkiGenerated()).isFalse();
            // the same users and certificates; the copy plans get is re-exported under a password
            // random per start (LabSecrets), so its bytes differ
            assertThat(certificates(s.properties())).isEqualTo(firstStore).hasSize(20);
        }
        try (PkiLabService s = new PkiLabService()) {
            s.start(new LabContext(base, 0, socketDir, 21));
            assertThat(s.pkiGenerated()).isTrue();
            assertThat(s.properties().get("pki.users")).isEqualTo("21");
        }
    }

    /** Alias to Base64 certificate of every key entry of the users' store the lab hands to plans. */
    private static java.util.Map<String, String> certificates(java.util.Map<String, String> props) throws Exception {
        java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(Path.of(props.get("pki.keystore")))) {
            ks.load(in, props.get("pki.keystore.password").toCharArray());
        }
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (String alias : java.util.Collections.list(ks.aliases())) {
            if (ks.isKeyEntry(alias)) {
                out.put(alias, java.util.Base64.getEncoder().encodeToString(ks.getCertificate(alias).getEncoded()));
            }
        }
        return out;
    }

    /**
     * A cache written by an older certificate profile (layout 1: empty critical BasicConstraints in
     * end-entity certificates, shared localKeyIDs) is regenerated, never reused.
     */
    @Test
    void cacheOfAnOlderLayoutIsRegenerated() throws Exception {
        int base = TestPorts.freeBase();
        Path marker;
        try (PkiLabService s = new PkiLabService()) {
            s.start(new LabContext(base, 0, socketDir, 3));
            assertThat(s.pkiGenerated()).isTrue();
            marker = Path.of(s.properties().get("pki.dir")).resolve(PkiLabService.SPEC_FILE);
        }
        assertThat(Files.readString(marker)).contains("layout=" + PkiLabService.LAYOUT);
        Files.writeString(marker, Files.readString(marker).replace("layout=" + PkiLabService.LAYOUT, "layout=1"));
        try (PkiLabService s = new PkiLabService()) {
            s.start(new LabContext(base, 0, socketDir, 3));
            assertThat(s.pkiGenerated()).isTrue();
        }
        assertThat(Files.readString(marker)).contains("layout=" + PkiLabService.LAYOUT).doesNotContain("layout=1\n");
    }

    @Test
    void portInUseIsReported() throws Exception {
        int base = TestPorts.freeBase();
        try (var taken = new java.net.ServerSocket(base + PkiLabService.HTTP_OFFSET, 1,
                java.net.InetAddress.getByName("127.0.0.1"));
                PkiLabService s = new PkiLabService()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.start(new LabContext(base, 0, socketDir, 5)))
                    .isInstanceOf(org.trustload.lab.EndpointInUseException.class)
                    .hasMessageContaining("127.0.0.1:" + (base + PkiLabService.HTTP_OFFSET));
        }
    }
}
