package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.Layout;
import org.trustload.harness.run.Run;
import org.trustload.harness.run.RunSpec;

/**
 * Each exit status of {@code ./trustload run} (docs/harness.md) with a real run through the harness's
 * {@link Run}, the class {@code ./trustload} hands over to; two runs go through the script itself (4, and 8 for
 * {@code --slo}). Two runs at once from one working directory both write their report (each its own scratch
 * folder).
 *
 * <p>CI budget: ~1 min: one JMeter run per exit status (no dashboard unless the case is about the report).
 */
class ExitStatusIT {

    private static final Path OUT = Plans.DIR.resolve("target/exit-status");
    private static final Path PLANS = Plans.DIR.resolve("src/test/resources/exit");

    /** A run without the HTML dashboard (the cases about the report turn it on). */
    private static RunSpec.Builder options(String name, Path jmx) {
        return RunSpec.of(Plans.LAYOUT, "exit/" + name, jmx).dir(OUT.resolve(name)).echo(false)
                .timeout(Duration.ofMinutes(3)).labArgs(List.of()).dashboard(false);
    }

    private static Run.Result run(RunSpec.Builder o) throws Exception {
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
        Run.Result r = run(RunSpec.of(Plans.LAYOUT, "ldap/ldap-search-200x10", jmx).dir(OUT.resolve("config-error"))
                .echo(false).timeout(Duration.ofMinutes(3)).noLab(true)
                .args(List.of("-Jscheme=gopher", "-Jthreads=1", "-Jloops=1", "-Jrampup=0")));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.CONFIG_ERROR);
        // LDAP Connection Config checks its scheme at test start: no sample, the element's message says what to fix
        assertThat(r.message()).startsWith("TrustLoad configuration error in LDAP Connection Config")
                .contains("scheme", "gopher", "0 samples with response code configError");
        assertThat(r.summaryText())
                .contains("Exit status 3: stopped by a configuration error - TrustLoad configuration error");
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
        RunSpec.Builder o = options("lab-dies", PLANS.resolve("errors.jmx")).services(List.of("http")).maxErrorPct(100)
                .labArgs(PlanRunIT.labArgs()).args(List.of("-Jloops=-1")) // runs until stopped
                .onLabReady(lab -> {
                    labProperties[0] = lab.properties();
                    // once JMeter has started the test (its console says so), not after a fixed time
                    Path console = OUT.resolve("lab-dies/console.txt");
                    Thread killer = new Thread(() -> {
                        try {
                            while (!(Files.exists(console)
                                    && Files.readString(console).contains("Starting standalone test"))) {
                                TimeUnit.MILLISECONDS.sleep(100);
                            }
                        } catch (InterruptedException | java.io.IOException e) {
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
    void eightWhenSloStopStopsTheTestWithTheRuleItBrokeNamed() throws Exception {
        // samples of 5 ms until stopped; SLO Stop judges p99<=1ms over 2 s windows and stops after 1 s of it
        Run.Result r =
                run(options("slo-stop", PLANS.resolve("slow.jmx")).args(List.of("-Jloops=-1", "-Jslo_stop=p99<=1ms")));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.SLO_BROKEN);
        assertThat(r.message()).startsWith("TrustLoad SLO broken: p99 ").contains("> 1 ms (objective p99<=1ms");
        assertThat(r.summaryText()).contains("Exit status 8: service-level objective broken");
    }

    @Test
    void nineWhenTheReportIsNotGenerated() throws Exception {
        // a scratch folder JMeter cannot create (its parent is a file): the dashboard fails, the results are there
        Path file = Files.createDirectories(OUT).resolve("a-file");
        Files.writeString(file, "not a folder");
        Run.Result r = run(options("no-report", PLANS.resolve("errors.jmx")).maxErrorPct(100).dashboard(true)
                .args(List.of("-Jloops=2", "-Jjmeter.reportgenerator.temp_dir=" + file.resolve("temp"))));
        assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.REPORT_FAILED);
        assertThat(r.dir().resolve("results.jtl")).isNotEmptyFile();
        assertThat(r.summaryText())
                .contains("Report: NOT generated (", "Exit status 9: the HTML report was not generated");
    }

    @Test
    void twoRunsAtOnceFromOneWorkingDirectoryBothWriteTheirReport() throws Exception {
        // JMeter's dashboard scratch folder defaults to "temp" in the working directory: each run now has its own
        Path work = Files.createDirectories(OUT.resolve("shared-work-dir"));
        List<Callable<Run.Result>> runs = List.of("together-1", "together-2").stream()
                .map(name -> (Callable<Run.Result>) () -> run(options(name, PLANS.resolve("errors.jmx"))
                        .maxErrorPct(100).dashboard(true).workDir(work).args(List.of("-Jloops=20", "-Jthreads=4"))))
                .toList();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (Future<Run.Result> f : pool.invokeAll(runs)) {
                Run.Result r = f.get();
                assertThat(r.status()).as(r.summaryText()).isEqualTo(ExitStatus.OK);
                assertThat(r.dir().resolve("report/index.html")).isNotEmptyFile();
                assertThat(r.dir().resolve(".report-temp")).as("the scratch folder is removed").doesNotExist();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(work.resolve("temp")).as("no shared scratch folder in the working directory").doesNotExist();
    }

    @Test
    void theLauncherExitsEightWhenTheRunBreaksItsSlo() throws Exception {
        Launched l = launch("launcher-slo", PLANS.resolve("slow.jmx").toString(), "--slo", "p99<=1ms");
        assertThat(l.status()).as(l.output()).isEqualTo(8);
        assertThat(l.output())
                .containsPattern("Objective p99<=1ms \\(--slo\\) over the steady window: all \\d+ samples of Total"
                + " \\(no ramp-up\\): BROKEN - p99 ");
    }

    private record Launched(int status, String output) {
    }

    /** {@code ./trustload run ARGS} as a user types it, from a folder of its own. */
    private static Launched launch(String name, String... runArgs) throws Exception {
        Path dir = OUT.resolve(name);
        Layout.deleteRecursively(dir);
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(List.of(Plans.ROOT.resolve("trustload").toString(), "run"));
        cmd.addAll(List.of(runArgs));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("console.txt").toFile());
        pb.environment().put("TRUSTLOAD_RESULTS", dir.resolve("results").toString());
        pb.environment().put("HEAP", "-Xms256m -Xmx512m");
        Plans.launcherEnvironment(pb.environment());
        Process p = pb.start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("./trustload finished, see " + dir).isTrue();
        return new Launched(p.exitValue(), Files.readString(dir.resolve("console.txt")));
    }

    @Test
    void theLauncherScriptExitsWithTheRunsStatus() throws Exception {
        Launched l = launch("launcher", PLANS.resolve("errors.jmx").toString(), "-Jloops=2");
        assertThat(l.status()).as(l.output()).isEqualTo(4);
        // every summary says what the load generator used
        assertThat(l.output()).contains("Load generator: JMeter (pid ");
    }
}
