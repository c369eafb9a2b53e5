package org.trustload.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.run.RunHeader;
import org.trustload.harness.run.RunSpec;
import org.trustload.testing.HostileInputs;
import org.trustload.testing.HostileInputs.Input;

/**
 * What the launcher itself reads — {@code -J} names and values, {@code -q} file names and contents, plan file
 * names and contents — tried with the {@link HostileInputs} corpus in this JVM, without a JMeter run: each goes
 * through what the harness does with it before JMeter starts (the option parser, the catalog lookup, the user
 * properties and their masking, the plan read, its thread groups and input files with those properties, the
 * summary header's thread lines, the plan copy with the harness elements). Each gives a usable value or one clear
 * error (a {@link HarnessException} or an {@link IOException} with a message of at most a few thousand
 * characters, no stack trace, no secret), within seconds. Every file the test writes, and every plan copy the
 * harness writes beside a plan, is inside the test's own folder.
 */
class HostileHarnessInputsTest {

    private static final String SECRET = "S3cr3t-of-the-harness-test";
    private static final Layout LAYOUT = new Layout(TestHome.ROOT, Path.of("target/jmeter-home").toAbsolutePath());
    private static final AtomicInteger FILES = new AtomicInteger();

    @TempDir
    static Path tmp;
    /** The LDAP search plan, copied into the test's folder (the harness writes its copies beside a plan). */
    static Path plan;
    static String planText;

    @BeforeAll
    static void setUp() throws IOException {
        TestHome.init();
        planText = Files.readString(TestHome.PLANS.resolve("ldap/ldap-search-200x10.jmx"));
        plan = Files.writeString(tmp.resolve("ldap-search.jmx"), planText);
    }

    /** The corpus, and what only a properties file or a plan can get wrong. */
    static Stream<Input> inputs() {
        List<Input> all = new ArrayList<>(HostileInputs.corpus());
        all.add(new Input("properties escape, malformed", "\\uZZZZ"));
        all.add(new Input("properties line ending in a backslash", "a\\"));
        all.add(new Input("XML external entity", "<?xml version=\"1.0\"?><!DOCTYPE p [<!ENTITY x SYSTEM"
                + " \"file:///etc/passwd\">]><jmeterTestPlan version=\"1.2\"><hashTree><TestPlan testname=\"&x;\"/>"
                + "<hashTree/></hashTree></jmeterTestPlan>"));
        return all.stream();
    }

    /** A file of the test's folder holding {@code text} in UTF-8 (a lone surrogate becomes '?'). */
    private static Path file(String name, String text) throws IOException {
        return Files.write(tmp.resolve(FILES.incrementAndGet() + "-" + name), text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Runs {@code what} within 20 s: a value, or a HarnessException/IOException whose message is clear. Any other
     * exception (a stack trace for the user) fails the test.
     */
    private static Object clear(String where, Input in, Callable<?> what) {
        Object r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try {
                return what.call();
            } catch (HarnessException | IOException e) {
                return e;
            }
        }, () -> where + " with " + in + ": no answer within 20 s");
        if (r instanceof Exception e) {
            String m = e.getMessage();
            int table = m == null ? -1 : m.indexOf("Known plans:");
            String own = table < 0 ? m : m.substring(0, table); // the catalog a usage error lists is not the input
            assertThat(own).as(where + " with " + in + ": a message").isNotBlank();
            assertThat(own).as(where + " with " + in + ": a short message").hasSizeLessThan(3000);
            assertThat(own).as(where + " with " + in + ": no stack trace").doesNotContain("\tat ");
            assertThat(own).as(where + " with " + in + ": no secret").doesNotContain(SECRET);
        }
        return r;
    }

    private static String text(Object o) {
        return o instanceof Exception e ? String.valueOf(e.getMessage()) : String.valueOf(o);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void aJValueOrNameIsParsedMaskedAndResolvedOrRefusedClearly(Input in) {
        String v = in.value();
        Object parsed = clear("-J values", in, () ->
                org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("-Jthreads=" + v,
                "-Jloops=" + v, "-Jduration=" + v, "-Jldap.truststore=" + v, "-Jldap.bind.password=" + v + SECRET))));
        if (parsed instanceof org.trustload.harness.cli.Commands.RunArgs r) {
            List<String> jargs = r.jmeterArgs();
            Object masked = clear("masked properties", in, () -> RunSpec.userProperties(jargs, true));
            assertThat(text(masked)).as("the header's properties never show a password").doesNotContain(SECRET);
            Object raw = clear("properties", in, () -> RunSpec.userProperties(jargs, false));
            @SuppressWarnings("unchecked")
            Map<String, String> props = raw instanceof Map<?, ?> m ? (Map<String, String>) m : Map.of();
            Object lines = clear("the header's thread lines", in, () -> {
                List<String> out = new ArrayList<>();
                for (PlanFile.ThreadGroup tg : PlanFile.threadGroups(plan)) {
                    out.add(RunHeader.threadsLine(tg, props, null, 1));
                    RunHeader.inside(tg, props).ifPresent(out::add);
                    tg.plannedSamples(props);
                    tg.durationSeconds(props);
                }
                return out;
            });
            assertThat(text(lines)).doesNotContain(SECRET);
            clear("the plan's input files", in, () -> PlanFile.inputFiles(plan, props));
        }
        clear("a -J name", in, () -> org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("-J" + v
                + "=1"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void aQFileNameOrContentIsReadOrRefusedClearlyAndItsValuesAreMasked(Input in) throws IOException {
        String v = in.value();
        // the name as given (a relative name is the working directory's: read, never written)
        Object named = clear("-q FILE", in, () ->
                org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("-q", v))));
        if (named instanceof org.trustload.harness.cli.Commands.RunArgs r) {
            List<String> jargs = r.jmeterArgs();
            clear("the -q file's properties", in, () -> RunSpec.userProperties(jargs, true));
        }
        // contents: as a value (beside a secret), as a name, as the whole file
        for (String content : List.of("name=" + v + "\npassword=" + SECRET + "\n", v + "=1\n", v)) {
            Path q = file("hostile.properties", content);
            Object parsed = clear("-q content", in, () ->
                    org.trustload.harness.cli.Commands.runArgs(new ArrayList<>(List.of("-q", q.toString()))));
            if (parsed instanceof org.trustload.harness.cli.Commands.RunArgs r) {
                List<String> jargs = r.jmeterArgs();
                Object masked = clear("the -q file's properties", in, () -> RunSpec.userProperties(jargs, true));
                assertThat(text(masked)).as("-q values are masked").doesNotContain(SECRET);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void aPlanNameOrContentIsResolvedReadOrRefusedClearly(Input in) throws IOException {
        String v = in.value();
        Main main = new Main(LAYOUT, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
        clear("the PLAN argument", in, () -> main.resolve(v));
        clear("the PLAN argument as a .jmx", in, () -> main.resolve(v + ".jmx"));
        String xml = v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
        List<Path> plans = List.of(file("raw.jmx", v),
                file("threads.jmx", planText.replace("${__P(threads,200)}", xml)),
                file("name.jmx", planText.replace("testname=\"200 users x 10 searches\"", "testname=\"" + xml + "\"")),
                file("truststore.jmx", planText.replace("${__P(ldap.truststore,)}", xml)));
        for (Path p : plans) {
            Object groups = clear("the plan's thread groups (" + p.getFileName() + ")", in, () -> {
                List<String> out = new ArrayList<>();
                for (PlanFile.ThreadGroup tg : PlanFile.threadGroups(p)) {
                    out.add(RunHeader.threadsLine(tg, Map.of(), null, 1));
                    RunHeader.inside(tg, Map.of()).ifPresent(out::add);
                }
                return out;
            });
            assertThat(text(groups)).as("no file's content read into the plan (" + p.getFileName() + ")")
                    .doesNotContain("root:x:0:0");
            clear("the plan's input files (" + p.getFileName() + ")", in, () -> PlanFile.inputFiles(p, Map.of()));
            Object copy = clear("the plan copy (" + p.getFileName() + ")", in,
                    () -> PlanFile.of(p).runCopy(true, t -> { }));
            if (copy instanceof Optional<?> c && c.isPresent()) {
                Path written = (Path) c.get();
                assertThat(written.toAbsolutePath().normalize()).as("written beside the plan, in the test's folder")
                        .startsWith(tmp.toAbsolutePath().normalize());
                Files.delete(written);
            }
        }
    }
}
