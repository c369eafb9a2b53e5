package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.trustload.testing.Slapd;

/**
 * The LDAP plans against a real OpenLDAP slapd (Debian's package, a throwaway instance per test):
 * every scheme, the published 500 x 25 scenario at a 1024 open-files limit (where stock JMeter's
 * LDAP Request sampler hangs), and a slapd that refuses connections.
 *
 * <p>CI budget: ~1 min: five plan runs, each against a slapd configured for its case (its start costs ~0.1 s).
 */
class LdapPlansSlapdIT {

    private static final Path OUT = Plans.DIR.resolve("target/slapd-runs");

    private static List<String> target(Slapd slapd) {
        List<String> args = new ArrayList<>(List.of(
                "-Jldap.host=" + slapd.host(),
                "-Jldap.port=" + slapd.ldapPort(),
                "-Jldapi.socket=" + slapd.socketPath(),
                "-Jldap.base=" + slapd.baseDn(),
                // the plans' filters range over the directory's users (the lab sets it in lab.properties)
                "-Jldap.users=" + slapd.options().entries()));
        if (slapd.options().tls()) {
            args.addAll(List.of("-Jldaps.port=" + slapd.ldapsPort(),
                    "-Jldap.truststore=" + slapd.trustStorePath(),
                    "-Jldap.truststore.password=" + slapd.trustStorePassword()));
        }
        return args;
    }

    @Test
    void ldapVsLdapsVsLdapiWarmsUpThenRunsEverySchemeAgainstSlapdWithoutErrors() throws Exception {
        Slapd.assumeOrFailInCi();
        try (Slapd slapd = Slapd.start(Slapd.Options.defaults().withEntries(1000))) {
            List<String> args = target(slapd);
            args.addAll(List.of("-Jn1=1", "-Jn2=5", "-Jn3=20", "-Jwarmup_seconds=1"));
            Path dir = Plans.run(Plans.DIR.resolve("ldap/ldap-vs-ldaps-vs-ldapi.jmx"),
                    OUT.resolve("ldap-vs-ldaps-vs-ldapi"), args, Duration.ofMinutes(5)).dir();
            JsonNode stats = Plans.statistics(dir);
            assertThat(stats.path("Total").path("errorCount").asLong()).isZero();
            for (String proto : List.of("ldap", "ldaps", "ldapi")) {
                assertThat(stats.path(proto + " search N=20").path("sampleCount").asLong())
                        .as(proto + " samples").isEqualTo(20);
                assertThat(stats.path(proto + " N=20 total").path("sampleCount").asLong()).isEqualTo(1);
                // the warm-up ran every protocol, outside the totals
                assertThat(stats.path("warm-up " + proto + " search N=20").path("sampleCount").asLong())
                        .as(proto + " warm-up samples").isPositive();
            }
        }
    }

    @Test
    void search500x25CompletesWithoutErrorsAt1024OpenFilesAndLeaksNoConnection() throws Exception {
        Slapd.assumeOrFailInCi();
        try (Slapd slapd = Slapd.start(Slapd.Options.defaults().withOpenFilesLimit(1024).withTls(false))) {
            int baseline = slapd.settledOpenFiles();
            List<String> args = target(slapd);
            args.addAll(List.of("-Jrampup=5", "-Jduration=300")); // published: 500 threads x 25 loops
            Path dir = Plans.run(Plans.DIR.resolve("ldap/ldap-search-500x25.jmx"),
                    OUT.resolve("ldap-search-500x25"), args, Duration.ofMinutes(8)).dir();
            JsonNode total = Plans.statistics(dir).path("Total");
            assertThat(total.path("sampleCount").asLong()).isEqualTo(12_500);
            assertThat(total.path("errorCount").asLong()).as("errors, see " + dir).isZero();
            assertOpenFilesReturnTo(slapd, baseline);
        }
    }

    @Test
    void search200x10PerThreadConnectionsLeakNothingAndSearchManyEntries() throws Exception {
        Slapd.assumeOrFailInCi();
        try (Slapd slapd = Slapd.start(Slapd.Options.defaults().withTls(false).withStatsLog(true))) {
            int baseline = slapd.settledOpenFiles();
            List<String> args = target(slapd);
            args.addAll(List.of("-Jrampup=2", "-Jconnection_mode=per-thread"));
            Path dir = Plans.run(Plans.DIR.resolve("ldap/ldap-search-200x10.jmx"),
                    OUT.resolve("ldap-search-200x10-per-thread"), args, Duration.ofMinutes(5)).dir();
            JsonNode total = Plans.statistics(dir).path("Total");
            assertThat(total.path("sampleCount").asLong()).isEqualTo(2_000);
            assertThat(total.path("errorCount").asLong()).as("errors, see " + dir).isZero();
            assertOpenFilesReturnTo(slapd, baseline);
            // the server's side: by default the 2,000 searches ask for many of the 10,000 users, each found
            Map<String, Integer> filters = searchedFilters(slapd);
            assertThat(filters.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(2_000);
            assertThat(filters).as("distinct filters slapd answered").hasSizeGreaterThan(1_000);
            assertThat(filters.keySet()).allMatch(f -> f.matches("\\(uid=fulano\\d+\\)"));
        }
    }

    @Test
    void aValuePatternGivenWithDashJVariesTheSearchesSlapdAnswers() throws Exception {
        Slapd.assumeOrFailInCi();
        try (Slapd slapd = Slapd.start(Slapd.Options.defaults().withTls(false).withEntries(100).withStatsLog(true))) {
            List<String> args = target(slapd);
            // JMeter would send a function inside a -J value literally; a value pattern is the sampler's own
            args.addAll(List.of("-Jthreads=2", "-Jloops=5", "-Jrampup=0", "-Jfilter=(uid=fulano[1:5])"));
            Path dir = Plans.run(Plans.DIR.resolve("ldap/ldap-search-200x10.jmx"),
                    OUT.resolve("ldap-search-value-pattern"), args, Duration.ofMinutes(3)).dir();
            JsonNode stats = Plans.statistics(dir);
            assertThat(stats.path("Total").path("errorCount").asLong()).as("errors, see " + dir).isZero();
            assertThat(stats.path("search (uid=fulano[1:5])").path("sampleCount").asLong()).isEqualTo(10);
            // one sequence shared by both threads: fulano1..5, then again
            assertThat(searchedFilters(slapd)).containsOnlyKeys("(uid=fulano1)", "(uid=fulano2)", "(uid=fulano3)",
                    "(uid=fulano4)", "(uid=fulano5)").allSatisfy((f, n) -> assertThat(n).isEqualTo(2));
        }
    }

    private static final java.util.regex.Pattern SEARCH =
            java.util.regex.Pattern.compile(" SRCH base=\".*\" scope=\\d+ deref=\\d+ filter=\"([^\"]*)\"");

    /** The {@code (uid=...)} filters of the searches slapd logged (loglevel stats), with how often each came. */
    static Map<String, Integer> searchedFilters(Slapd slapd) throws Exception {
        Map<String, Integer> filters = new HashMap<>();
        for (String line : Files.readAllLines(slapd.logFile())) {
            java.util.regex.Matcher m = SEARCH.matcher(line);
            if (m.find() && m.group(1).startsWith("(uid=")) {
                filters.merge(m.group(1), 1, Integer::sum);
            }
        }
        return filters;
    }

    @Test
    void whenSlapdRefusesConnectionsThePlanStillEndsInBoundedTimeWithTheRefusalsAsErrors() throws Exception {
        Slapd.assumeOrFailInCi();
        try (Slapd slapd = Slapd.start(Slapd.Options.defaults().withOpenFilesLimit(64).withTls(false)
                .withEntries(100))) {
            // Fill slapd's connection table (64 open files) with idle clients, so every connection the
            // plan opens is refused: deterministic, unlike racing many threads against the limit.
            List<com.unboundid.ldap.sdk.LDAPConnection> held = new ArrayList<>();
            try {
                for (int i = 0; i < 200; i++) {
                    com.unboundid.ldap.sdk.LDAPConnection c = null;
                    try {
                        c = new com.unboundid.ldap.sdk.LDAPConnection(slapd.host(), slapd.ldapPort());
                        c.getRootDSE();
                        held.add(c);
                    } catch (com.unboundid.ldap.sdk.LDAPException refused) {
                        if (c != null) {
                            c.close();
                        }
                        break;
                    }
                }
                assertThat(held.size()).as("connections slapd accepted at 64 open files").isBetween(10, 64);
                List<String> args = target(slapd);
                args.addAll(List.of("-Jthreads=20", "-Jloops=3", "-Jrampup=0", "-Jconnect_timeout=2000",
                        "-Jresponse_timeout=5000", "-Jduration=120"));
                long start = System.nanoTime();
                Path dir = Plans.run(Plans.DIR.resolve("ldap/ldap-search-200x10.jmx"),
                        OUT.resolve("ldap-search-refused"), args, Duration.ofMinutes(3)).dir();
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                JsonNode total = Plans.statistics(dir).path("Total");
                assertThat(total.path("sampleCount").asLong()).as("every sample is accounted for").isEqualTo(60);
                assertThat(total.path("errorCount").asLong()).as("refusals are failed samples").isPositive();
                assertThat(took).as("bounded by the timeouts, not by the server").isLessThan(Duration.ofMinutes(2));
                Map<String, Integer> codes = responseCodes(dir.resolve("results.jtl"));
                assertThat(codes.keySet()).as("response codes").containsAnyOf("serverDown", "connectError");
                assertThat(codes.keySet()).as("only LDAP categories, no unexpected errors")
                        .allMatch(c -> c.equals("200") || c.equals("serverDown") || c.equals("connectError")
                                || c.equals("timeout") || c.equals("unavailable") || c.equals("busy"));
            } finally {
                held.forEach(com.unboundid.ldap.sdk.LDAPConnection::close);
            }
        }
    }

    private static Map<String, Integer> responseCodes(Path jtl) throws Exception {
        Map<String, Integer> codes = new HashMap<>();
        org.trustload.harness.results.Jtl.forEach(jtl, r -> codes.merge(r.responseCode(), 1, Integer::sum));
        return codes;
    }

    private static void assertOpenFilesReturnTo(Slapd slapd, int baseline) throws InterruptedException {
        int now = slapd.openFiles();
        for (int i = 0; i < 50 && now > baseline + 2; i++) {
            Thread.sleep(100);
            now = slapd.openFiles();
        }
        assertThat(now).as("slapd open files after the run (baseline " + baseline + ")")
                .isLessThanOrEqualTo(baseline + 2);
    }

}
