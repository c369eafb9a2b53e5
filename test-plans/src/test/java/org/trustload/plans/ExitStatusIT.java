package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.Run;

/**
 * Each exit status of {@code ./trustload run} (docs/harness.md) with a real run through the harness's
 * {@link Run}, the class {@code ./trustload} hands over to; one run goes through the script itself.
 */
class ExitStatusIT {

    private static final Path OUT = Plans.DIR.resolve("target/exit-status");
    private static final Path PLANS = Plans.DIR.resolve("src/test/resources/exit");

    private static Run.Options options(String name, Path jmx) {
        return Run.Options.of(Plans.LAYOUT, "exit/" + name, jmx).dir(OUT.resolve(name)).echo(false)
                .timeout(Duration.ofMinutes(3)).labArgs(List.of());
    }

    private static Run.Result run(Run.Options o) throws Exception {
        return Run.execute(Plans.JMETER, o, System.out);
    }

    @Test
    void zeroWhenTheErrorsStayWithinTheBudget() throws Exception {
        Run.Result r = run(options("within-budget", PLANS.resolve("errors.jmx")).maxErrorPct(60));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.OK);
        assertThat(r.summary().orElseThrow().total().errorPct()).isEqualTo(50.0);
        // the assembled home's log4j2.xml: no "package scanning is deprecated" (nor any Log4j status line)
        assertThat(Files.readString(r.console())).doesNotContain("StatusConsoleListener", "package scanning");
    }

    @Test
    void fourWhenErrorsExceedMaxErrorPctWithTheAssertionMessageInTopErrors() throws Exception {
        Run.Result r = run(options("too-many-errors", PLANS.resolve("errors.jmx")));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.TOO_MANY_ERRORS);
        assertThat(r.message()).contains("50.00% of 10 samples failed, above --max-error-pct 1");
        // top errors name the failed assertion, not only the response code
        assertThat(r.summaryText()).contains("5  200 OK [assertion: ", "Exit status 4");
    }

    @Test
    void fiveWhenTheSetUpFailsAndTheMainThreadGroupNeverRuns() throws Exception {
        Run.Result r = run(options("setup-fails", PLANS.resolve("setup-fails.jmx")).maxErrorPct(100));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.THREAD_GROUP_WITHOUT_SAMPLES);
        assertThat(r.message()).contains("'Main phase'").doesNotContain("setUp: prepare");
    }

    @Test
    void threeWhenASampleReportsAConfigurationError() throws Exception {
        // an unknown URL scheme is a configuration error of LDAP Request (response code configError)
        Path jmx = Plans.DIR.resolve("ldap/ldap-search-200x10.jmx");
        Run.Result r = run(Run.Options.of(Plans.LAYOUT, "ldap/ldap-search-200x10", jmx).dir(OUT.resolve("config-error"))
                .echo(false).timeout(Duration.ofMinutes(3)).noLab(true)
                .args(List.of("-Jscheme=gopher", "-Jthreads=1", "-Jloops=1", "-Jrampup=0")));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.CONFIG_ERROR);
        // LDAP Connection Config checks its scheme at test start: no sample, the element's message says what to fix
        assertThat(r.message()).startsWith("TrustLoad configuration error in LDAP Connection Config")
                .contains("scheme", "gopher", "0 samples with response code configError");
        assertThat(r.summaryText()).contains("Exit status 3: stopped by a configuration error - TrustLoad configuration error");
    }

    @Test
    void twoWhenJMeterCannotLoadThePlan() throws Exception {
        Run.Result r = run(options("broken", PLANS.resolve("broken.jmx")));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.NOT_EXECUTED);
    }

    @Test
    void twoWhenTheLabDoesNotStart() throws Exception {
        Run.Result r = run(options("no-lab", PLANS.resolve("errors.jmx")).services(List.of("http"))
                .labArgs(List.of("--no-such-lab-option")));
        assertThat(r.status()).isEqualTo(ExitStatus.NOT_EXECUTED);
        assertThat(r.message()).contains("the lab exited", "before it was ready");
    }

    @Test
    void twoWhenTheLabDiesDuringTheRunAndItsPropertiesAreGone() throws Exception {
        Path[] labProperties = new Path[1];
        Run.Options o = options("lab-dies", PLANS.resolve("errors.jmx")).services(List.of("http")).maxErrorPct(100)
                .labArgs(PlanRunIT.labArgs()).args(List.of("-Jloops=-1")) // runs until stopped
                .onLabReady(lab -> {
                    labProperties[0] = lab.properties();
                    Thread killer = new Thread(() -> {
                        try {
                            TimeUnit.SECONDS.sleep(8);
                        } catch (InterruptedException e) {
                            return;
                        }
                        lab.handle().destroyForcibly();
                    });
                    killer.setDaemon(true);
                    killer.start();
                });
        Run.Result r = run(o);
        assertThat(r.status()).isEqualTo(ExitStatus.NOT_EXECUTED);
        // which services, how the lab ended, where its log is
        assertThat(r.message()).contains("JMeter was stopped because the lab (services http) exited with status 137",
                "killed by signal 9", "lab log: " + r.dir().resolve("lab.log"));
        assertThat(r.summaryText()).contains("Exit status 2: ", "JMeter was stopped because the lab (services http)");
        // JMeter stopped: no process left writing this run's results
        String jtl = r.dir().resolve("results.jtl").toString();
        assertThat(ProcessHandle.allProcesses().filter(ph -> ph.info().commandLine().orElse("").contains(jtl)))
                .as("JMeter still running").isEmpty();
        assertThat(labProperties[0]).as("the lab's properties (passwords) are deleted after the run").doesNotExist();
        try (Stream<Path> files = Files.walk(r.dir())) {
            assertThat(files.map(f -> f.getFileName().toString())).doesNotContain("lab.properties");
        }
    }

    @Test
    void theLauncherScriptExitsWithTheRunsStatus() throws Exception {
        Path dir = OUT.resolve("launcher");
        org.trustload.harness.Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        ProcessBuilder pb = new ProcessBuilder(Plans.ROOT.resolve("trustload").toString(), "run",
                PLANS.resolve("errors.jmx").toString(), "-Jloops=2").directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("console.txt").toFile());
        pb.environment().put("TRUSTLOAD_RESULTS", dir.resolve("results").toString());
        pb.environment().put("HEAP", "-Xms256m -Xmx512m");
        Process p = pb.start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("./trustload finished, see " + dir).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("console.txt"))).isEqualTo(4);
    }
}
