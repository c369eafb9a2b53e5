package org.trustload.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The workload file: operations, shares or rates, target, ceiling, spares, properties and reports; what is refused. */
class WorkloadTest {

    private static final Path FILE = Path.of("/studies/rest-pki.properties");

    private static Workload parse(String text, Workload.Rate target) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return Workload.parse(p, FILE, target);
    }

    private static final String REST_PKI = """
            name = Rest PKI study
            target = 6,000/min
            slo = p95<=2s,errors<=1%
            size = --server process:42 --server-cpus 1 --load-cpus 0
            operations = cades, pades, login
            op.cades.plan = pki/cades
            op.cades.share = 60%
            op.cades.unit = signatures
            op.cades.J.pki.api = dss
            op.cades.J.pki.url = http://127.0.0.1:8080/services/rest
            op.cades.report = ../results/cades-1cpu/sizing.json, ../results/cades-2cpu/sizing
            op.pades.plan = pki/pades
            op.pades.share = 0.3
            op.login.plan = pki/certificate-login
            op.login.share = 10%
            op.login.slo = p95<=1s,errors<=1%
            op.login.size = --start 4
            """;

    @Test
    void theRestPkiStudysMixParses() throws Exception {
        Workload w = parse(REST_PKI, null);
        assertThat(w.name()).isEqualTo("Rest PKI study");
        assertThat(w.target().perSecond()).isEqualTo(100);
        assertThat(w.ceiling()).as("the default ceiling").isEqualTo(0.70);
        assertThat(w.spares()).as("N+1 by default").isEqualTo(1);
        assertThat(w.sizeArgs()).containsExactly("--server", "process:42", "--server-cpus", "1", "--load-cpus", "0");
        assertThat(w.operations()).extracting(Workload.Operation::name).containsExactly("cades", "pades", "login");
        Workload.Operation cades = w.operations().get(0);
        assertThat(w.rateOf(cades)).isCloseTo(60, Offset.offset(1e-9));
        assertThat(cades.properties()).containsEntry("pki.api", "dss").containsEntry("pki.url",
                "http://127.0.0.1:8080/services/rest");
        assertThat(cades.reports()).containsExactly(Path.of("/results/cades-1cpu/sizing.json"),
                Path.of("/results/cades-2cpu/sizing"));
        assertThat(cades.slo()).as("the file's objective").isEqualTo("p95<=2s,errors<=1%");
        assertThat(w.operations().get(2).slo()).as("its own objective").isEqualTo("p95<=1s,errors<=1%");
        assertThat(w.operations().get(2).sizeArgs()).containsExactly("--start", "4");
        assertThat(w.operations().get(1).unit()).isEqualTo("requests");
        assertThat(w.totalRate()).isCloseTo(100, Offset.offset(1e-9));
    }

    @Test
    void theCommandLinesTargetReplacesTheFiles() throws Exception {
        Workload w = parse(REST_PKI, Workload.Rate.parse("120/s", "--target"));
        assertThat(w.totalRate()).isCloseTo(120, Offset.offset(1e-9));
    }

    @Test
    void ratesAreReadPerSecondPerMinuteAndPerHour() throws Exception {
        assertThat(Workload.Rate.parse("183/min", "t").perSecond()).isCloseTo(3.05, Offset.offset(1e-9));
        assertThat(Workload.Rate.parse("1530/s", "t").perSecond()).isEqualTo(1530);
        assertThat(Workload.Rate.parse("3600/h", "t").perSecond()).isEqualTo(1);
        assertThatThrownBy(() -> Workload.Rate.parse("6000", "target")).hasMessageContaining("100/s or 6000/min");
    }

    @Test
    void anOperationWithItsOwnRateNeedsNoTarget() throws Exception {
        Workload w = parse("operations = kms\nop.kms.plan = kms/kms-benchmark-aws\nop.kms.rate = 1530/s\n"
                + "op.kms.slo = p99<=50ms\n"
                + "ceiling = 0.8\nspares = 2\n", null);
        assertThat(w.target()).isNull();
        assertThat(w.totalRate()).isEqualTo(1530);
        assertThat(w.ceiling()).isEqualTo(0.8);
        assertThat(w.spares()).isEqualTo(2);
    }

    @Test
    void mistakesAreRefusedWithWhatToFix() {
        record Bad(String text, String message) {
        }
        for (Bad b : List.of(
                new Bad("op.a.plan = x\n", "operations lists"),
                new Bad("operations = a\nop.a.share = 50%\nop.a.slo = p99<=1s\ntarget = 1/s\n", "op.a.plan"),
                new Bad("operations = a\nop.a.plan = x\nop.a.share = 50%\nop.a.slo = p99<=1s\ntarget = 1/s\n",
                        "add up to 50.0%"),
                new Bad("operations = a\nop.a.plan = x\nop.a.share = 100%\nop.a.slo = p99<=1s\n", "need a target rate"),
                new Bad("operations = a\nop.a.plan = x\nop.a.slo = p99<=1s\n", "not neither"),
                new Bad("operations = a\nop.a.plan = x\nop.a.rate = 1/s\nop.a.share = 1\nop.a.slo = p99<=1s\n",
                        "not both"),
                new Bad("operations = a\nop.a.plan = x\nop.a.rate = 1/s\n", "op.a.slo"),
                new Bad("operations = a\nop.a.plan = x\nop.a.rate = 1/s\nop.a.slo = p99<=1s\nop.b.plan = y\n",
                        "no operation 'b'"),
                new Bad("operations = a\nop.a.plan = x\nop.a.rate = 1/s\nop.a.slo = p99<=1s\nceiling = 120%\n",
                        "ceiling"),
                new Bad("operations = a\nop.a.plan = x\nop.a.rate = 1/s\nop.a.slo = p99<=1s\nspares = -1\n", "spares"),
                new Bad("operations = a\nop.a.plan = x\nop.a.rate = 1/s\nop.a.slo = p99<=1s\ntarrget = 1/s\n",
                        "unknown keys tarrget"))) {
            assertThatThrownBy(() -> parse(b.text(), null)).as(b.text()).isInstanceOf(Workload.WorkloadException.class)
                    .hasMessageContaining(b.message());
        }
    }

    @Test
    void environmentVariablesFillWhatDiffersFromOneMachineToTheNext() throws Exception {
        Properties p = new Properties();
        p.load(new StringReader("size = --server process:${DSS_PID} -q ${DSS_Q}\nop.a.J.x = ${DSS_PID}0\n"));
        Properties e = Workload.expand(p, java.util.Map.of("DSS_PID", "4242", "DSS_Q", "/tmp/dss-x/dss.properties"));
        assertThat(e.getProperty("size")).isEqualTo("--server process:4242 -q /tmp/dss-x/dss.properties");
        assertThat(e.getProperty("op.a.J.x")).isEqualTo("42420");
        assertThatThrownBy(() -> Workload.expand(p, java.util.Map.of("DSS_PID", "1")))
                .hasMessageContaining("set the environment variable DSS_Q");
    }

    /** Every study under studies/ is a valid workload file (its machine-specific values from the environment). */
    @Test
    void everyStudyFileParses() throws Exception {
        Path studies = Path.of("..", "studies");
        List<Path> files;
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(studies)) {
            files = s.filter(f -> f.toString().endsWith(".properties")).sorted().toList();
        }
        assertThat(files).extracting(f -> f.getFileName().toString()).contains("rest-pki.properties", "ldap.properties",
                "mysql.properties", "gmssl.properties", "kms.properties", "pdp.properties");
        java.util.Map<String, String> env = new java.util.HashMap<>();
        for (String v : List.of("DSS_PID", "DSS_Q", "SLAPD_PID", "SLAPD_PORT", "MARIADB_PID", "DB_Q", "TLCP_PID",
                "TLCP_PORT",
                "TLCP_Q", "MOTO_PID", "MOTO_URL", "KMS_KEY_ID")) {
            env.put(v, "1");
        }
        for (Path f : files) {
            Properties p = new Properties();
            try (java.io.Reader r = java.nio.file.Files.newBufferedReader(f)) {
                p.load(r);
            }
            Workload w = Workload.parse(Workload.expand(p, env), f, null);
            assertThat(w.totalRate()).as(f.toString()).isPositive();
            assertThat(w.operations()).as(f.toString()).isNotEmpty();
        }
    }
}
