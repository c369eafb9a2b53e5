package org.trustload.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {

    private static final Layout LAYOUT = new Layout(Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath()
            .normalize(),
            Path.of("/nonexistent"));

    private static int main(ByteArrayOutputStream err, String... args) throws Exception {
        return new Main(LAYOUT, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true,
                StandardCharsets.UTF_8)).run(args);
    }

    @Test
    void usageErrorsExitOne() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(main(err, "frobnicate")).isEqualTo(1);
        assertThat(main(err, "run")).isEqualTo(1);
        assertThat(main(err, "run", "no/such-plan")).isEqualTo(1);
        assertThat(main(err, "run", "pki/pades", "--engines", "17")).isEqualTo(1);
        assertThat(main(err, "run", "pki/pades", "--max-error-pct", "x")).isEqualTo(1);
        assertThat(main(err, "run", "pki/pades", "-q", "/no/such/file")).isEqualTo(1);
        assertThat(main(err, "bench", "nope")).isEqualTo(1);
        assertThat(main(err, "bench", "kms", "notakeyvalue")).isEqualTo(1);
        assertThat(main(err, "help", "nope")).isEqualTo(1);
        assertThat(main(err, "lab", "ldap", "--bind", "0.0.0.0"))
                .as("the services before --bind, refused for the wildcard")
                .isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("never 0.0.0.0");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown command 'frobnicate'",
                "unknown plan 'no/such-plan'");
    }

    @Test
    void helpListsEveryExitStatus() throws Exception {
        String help = Main.usage();
        for (ExitStatus s : ExitStatus.values()) {
            assertThat(help).contains(s.code() + "  " + s.meaning());
        }
    }

    @Test
    void helpOfACommandShowsItsDeclaredOptions() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = new Main(LAYOUT, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()))
                .run(new String[] {"help", "run"});
        assertThat(rc).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage:  ./trustload run PLAN", "--engines N",
                "--remote HOST[:PORT],...",
                "--max-error-pct P");
        assertThat(org.trustload.harness.cli.Commands.options().get("size")).contains("--slo", "--step-time",
                "--remote", "--no-lab");
        assertThat(org.trustload.harness.cli.Commands.options().get("fixture")).isEmpty();
    }

    @Test
    void parsesRunOptionsInOrder() throws Exception {
        org.trustload.harness.cli.Commands.RunArgs r = org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(
                List.of("-Ja=1", "--no-lab", "--engines=2", "--max-error-pct", "5", "-q", "pom.xml", "-J", "b=2")));
        assertThat(r.jmeterArgs()).containsExactly("-Ja=1", "-q", Path.of("pom.xml").toAbsolutePath().normalize()
                .toString(), "-Jb=2");
        assertThat(r.noLab()).isTrue();
        assertThat(r.engines()).isEqualTo(2);
        assertThat(r.maxErrorPct()).isEqualTo(5.0);
        assertThat(r.slo()).isNull();
        assertThatThrownBy(() -> org.trustload.harness.cli.Commands.runArgs(List.of("stray")))
                .isInstanceOf(HarnessException.class);
    }

    @Test
    void sloTakesSizesRulesButNotTheServersCpu() throws Exception {
        assertThat(org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("--slo", "p99<=1ms,errors<=1%")))
                .slo().toString()).isEqualTo("p99<=1ms,errors<=1%");
        assertThat(org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("--slo=avg<2s"))).slo().rules())
                .hasSize(1);
        assertThatThrownBy(() -> org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("--slo",
                "p99<=fast")))).isInstanceOf(HarnessException.class)
                .hasMessageContaining("cannot read the rule 'p99<=fast'");
        assertThatThrownBy(() -> org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("--slo",
                "server.cpu<=90%")))).isInstanceOf(HarnessException.class)
                .hasMessageContaining("server.cpu is judged by ./trustload size");
        assertThatThrownBy(() -> org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("--slo"))))
                .isInstanceOf(HarnessException.class);
    }

    @Test
    void listShowsEachPlansTargetProperties() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = new Main(LAYOUT, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()))
                .run(new String[] {"list"});
        assertThat(rc).isZero();
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("TARGET")
                .containsPattern("(?m)^ldap/ldap-search-200x10 +ldap +ldap\\.host +200 users")
                .containsPattern("(?m)^pki/login +pki +pki\\.login\\.url,pki\\.url,pki\\.mtls\\.url +Certificate login")
                .containsPattern("(?m)^jdbc/mysql-select-insert +- +db\\.url ");
    }
}
