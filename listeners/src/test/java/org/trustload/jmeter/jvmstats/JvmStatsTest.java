package org.trustload.jmeter.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.beans.PropertyDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ResourceBundle;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmStatsTest {

    @TempDir
    static Path dir;

    @BeforeAll
    static void jmeterProperties() throws Exception {
        Path props = dir.resolve("jmeter.properties");
        Files.writeString(props, JvmStats.RESULTS_DIR_PROPERTY + "=" + dir + "\n"
                + SampleEvent.SAMPLE_VARIABLES + "=jvm_cpu_ms,jvm_rss_mb\n");
        JMeterUtils.loadJMeterProperties(props.toString());
        SampleEvent.initSampleVariables();
    }

    /** What JMeterThread does for a sample: previous result, then the event (which reads sample_variables). */
    private static SampleEvent sample(String label) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(label);
        r.setResponseMessage("OK");
        r.setSuccessful(true);
        JMeterContextService.getContext().setPreviousResult(r);
        return new SampleEvent(r, "tg", JMeterContextService.getContext().getVariables());
    }

    /** A transaction controller's row: JMeter notifies it without changing the previous result. */
    private static SampleEvent transaction() {
        SampleResult r = new SampleResult();
        r.setSampleLabel("transaction");
        r.setResponseMessage("Number of samples in transaction : 3, number of failing samples : 0");
        return new SampleEvent(r, "tg", JMeterContextService.getContext().getVariables());
    }

    private static JvmStats element(String source, String target, String summary) {
        JvmStats s = new JvmStats();
        s.setName("JVM Stats");
        s.setSource(source);
        s.setTarget(target);
        s.setIntervalMs(100);
        s.setSummaryFile(summary);
        return s;
    }

    @Test
    void selfPublishesVariablesAndCountsOnlyRealRequests() throws Exception {
        JvmStats s = element("self", "", "self-summary");
        s.testStarted();
        JMeterVariables vars = new JMeterVariables();
        JMeterContextService.getContext().setVariables(vars);
        JMeterContextService.getContext().setPreviousResult(null);
        s.threadStarted();
        assertThat(vars.get("jvm_cpu_ms")).matches("\\d+");
        assertThat(vars.get("jvm_heap_used_mb")).matches("\\d+\\.\\d");
        assertThat(vars.get("jvm_threads")).matches("\\d+");
        for (int i = 0; i < 3; i++) {
            SampleEvent e = sample("request " + i);
            assertThat(e.getVarValue(0)).as("sample_variables saw the live value").matches("\\d+");
            vars.get("jvm_cpu_ms"); // another read in the same sample (e.g. ${jvm_cpu_ms}) counts nothing
        }
        transaction();
        Thread.sleep(350);
        sample("request 4");
        assertThat(vars.get("jvm_cpu_pct")).as("a second poll gives a CPU %").matches("\\d+\\.\\d");
        s.testEnded();
        String text = Files.readString(dir.resolve("self-summary.txt"));
        assertThat(text).contains("this JVM",
                "requests           4 (transaction-controller rows, setUp and tearDown excluded)")
                .contains("jstat -gc (KB, counts, seconds)");
        JsonNode j = new ObjectMapper().readTree(dir.resolve("self-summary.json").toFile());
        assertThat(j.get("requests").asLong()).isEqualTo(4);
        assertThat(j.get("cpuEndMs").asDouble()).isGreaterThanOrEqualTo(j.get("cpuStartMs").asDouble());
        assertThat(j.get("ownCpuMs").asDouble()).as("the polls' own CPU is measured").isGreaterThanOrEqualTo(0);
        assertThat(j.get("cpuPerRequestMs").asDouble()).as("CPU per request leaves out the element's own polls")
                .isEqualTo(Math.max(0, j.get("cpuUsedMs").asDouble() - j.get("ownCpuMs").asDouble()) / 4,
                        org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void setUpAndTearDownSamplesAreNotCountedAndTheWindowIsTheMeasuredGroups() throws Exception {
        JvmStats s = element("self", "", "window-summary");
        s.testStarted();
        runThread(s, new org.apache.jmeter.threads.SetupThreadGroup(), "setUp request");
        runThread(s, new org.apache.jmeter.threads.ThreadGroup(), "request 1", "request 2");
        runThread(s, new org.apache.jmeter.threads.PostThreadGroup(), "tearDown request");
        s.testEnded();
        JMeterContextService.getContext().setThreadGroup(null);
        assertThat(Files.readString(dir.resolve("window-summary.txt")))
                .contains("requests           2 (", "setUp/tearDown excluded");
    }

    /** A thread of {@code group}: it starts, samples {@code labels}, and ends. */
    private static void runThread(JvmStats s, org.apache.jmeter.threads.AbstractThreadGroup group, String... labels) {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        JMeterContextService.getContext().setThreadGroup(group);
        s.threadStarted();
        for (String label : labels) {
            sample(label);
        }
        s.threadFinished();
    }

    @Test
    void gcFiguresStartAtZeroAtTestStart() {
        org.trustload.jvmstats.StatsSnapshot base = org.trustload.jvmstats.StatsSnapshot.builder(1_000).cpuMs(5_000)
                .heap(8 << 20, 16 << 20).youngGc(40, 400).fullGc(2, 200).build();
        org.trustload.jvmstats.StatsSnapshot now = org.trustload.jvmstats.StatsSnapshot.builder(2_000).cpuMs(5_500)
                .heap(9 << 20, 16 << 20).youngGc(43, 430).fullGc(2, 200).build();
        String[] first = JvmStats.values(base, null, base);
        String[] v = JvmStats.values(base, base, now);
        int gcTime = JvmStats.VARIABLES.indexOf("gc_time_ms");
        assertThat(first[gcTime]).isEqualTo("0.0");
        assertThat(v[gcTime]).isEqualTo("30.0");
        assertThat(v[JvmStats.VARIABLES.indexOf("ygc")]).isEqualTo("3");
        assertThat(v[JvmStats.VARIABLES.indexOf("fgc")]).isEqualTo("0");
        assertThat(v[JvmStats.VARIABLES.indexOf("gc_count")]).isEqualTo("3");
        assertThat(v[JvmStats.VARIABLES.indexOf("cpu_ms")]).as("CPU time stays the process's").isEqualTo("5500");
        assertThat(v[JvmStats.VARIABLES.indexOf("cpu_pct")]).isEqualTo("50.0");
    }

    @Test
    void theElementListsItsOwnColumnsInSampleVariablesOnceAndRemovesThemAtTestEnd() {
        String before = JMeterUtils.getProperty(SampleEvent.SAMPLE_VARIABLES);
        java.util.List<String> added = JvmStats.addSampleVariables(new String[] {"other_a", "jvm_cpu_ms"});
        assertThat(added).as("only what was not listed").containsExactly("other_a");
        assertThat(JvmStats.addSampleVariables(new String[] {"other_a"})).isEmpty();
        String listed = JMeterUtils.getProperty(SampleEvent.SAMPLE_VARIABLES);
        assertThat(listed.split(",")).startsWith("jvm_cpu_ms", "jvm_rss_mb").containsOnlyOnce("other_a", "jvm_cpu_ms");
        assertThat(SampleEvent.getVarName(SampleEvent.getVarCount() - 1)).as("SampleEvent re-read the list")
                .isEqualTo("other_a");
        JvmStats.removeSampleVariables(added);
        assertThat(JMeterUtils.getProperty(SampleEvent.SAMPLE_VARIABLES))
                .as("the user's own list is kept").isEqualTo(before);
        assertThat(SampleEvent.getVarCount()).isEqualTo(2);
    }

    @Test
    void aTargetThatDisappearsIsReportedNotFatal() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "300").start();
        try {
            JvmStats s = element("process", Long.toString(sleeper.pid()), "gone-summary");
            s.testStarted();
            JMeterContextService.getContext().setVariables(new JMeterVariables());
            s.threadStarted();
            assertThat(sample("r").getVarValue(1)).as("jvm_rss_mb").isNotEmpty();
            sleeper.destroyForcibly();
            sleeper.waitFor(10, TimeUnit.SECONDS);
            Thread.sleep(400);
            assertThat(sample("r").getVarValue(1)).as("no stale values").isEmpty();
            s.testEnded();
            assertThat(Files.readString(dir.resolve("gone-summary.txt")))
                    .contains("note: target disappeared", "has exited", "requests           2");
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void aBadTargetGivesASummaryWithTheReasonAndNoException() throws Exception {
        JvmStats s = element("jmx", "not a url", "bad-summary");
        s.testStarted();
        s.threadStarted();
        s.testEnded();
        assertThat(Files.readString(dir.resolve("bad-summary.txt")))
                .contains("cannot watch jmx 'not a url'", "bad JMX target");
        JvmStats unknown = element("nope", "", "unknown-summary");
        unknown.testStarted();
        unknown.testEnded();
        assertThat(Files.readString(dir.resolve("unknown-summary.txt"))).contains("unknown stats source 'nope'");
    }

    @Test
    void remoteTargetsArePolledByOneEngineLoadGeneratorsByAll() {
        assertThat(JvmStats.shouldPoll(true, "127.0.0.1:1099", "")).isTrue();
        assertThat(JvmStats.shouldPoll(true, null, "")).isTrue();
        assertThat(JvmStats.shouldPoll(false, null, "")).as("not distributed").isTrue();
        assertThat(JvmStats.shouldPoll(false, "127.0.0.1:1099", "127.0.0.1:1099")).isTrue();
        assertThat(JvmStats.shouldPoll(false, "127.0.0.1:1100", "127.0.0.1:1099")).isFalse();
        assertThat(JvmStats.shouldPoll(false, "127.0.0.1:1100", "")).isFalse();
    }

    /**
     * With {@code influx.url} set, every poll becomes a {@code jvmstats} point sent by the writer's own thread;
     * the test's end sends what is left. A JDK HTTP server stands in for InfluxDB's write API (InfluxDbIT uses
     * the real one); a bad URL leaves the element working without InfluxDB.
     */
    @Test
    void withInfluxUrlEveryPollIsWrittenAsAJvmstatsPointAndABadUrlIsNotFatal() throws Exception {
        java.util.List<String> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 10);
        server.createContext("/write", ex -> {
            bodies.add(new String(ex.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
        try {
            JMeterUtils.setProperty(JvmStatsInflux.URL_PROPERTY,
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/write?db=t");
            JMeterUtils.setProperty(JvmStatsInflux.APPLICATION_PROPERTY, "unit/plan");
            JvmStats s = element("self", "", "influx-summary");
            s.setVariablePrefix("lg");
            s.testStarted(); // polls once
            s.testEnded(); // polls once more, then sends what is left
            assertThat(bodies).as("sent at test end at the latest").isNotEmpty();
            java.util.List<String> lines = bodies.stream().flatMap(String::lines).toList();
            assertThat(lines).as("the first poll and the last (test end)").hasSizeGreaterThanOrEqualTo(2)
                    .allSatisfy(l -> assertThat(l)
                    .startsWith("jvmstats,application=unit/plan,name=JVM\\ Stats,prefix=lg,source=self,target=")
                    .containsPattern(" cpu_ms=\\d+,").contains(",heap_used_mb=", ",threads=").matches(".* \\d{19}"));
            JMeterUtils.setProperty(JvmStatsInflux.URL_PROPERTY, "localhost:8086");
            JvmStats bad = element("self", "", "influx-bad-summary");
            bad.testStarted();
            bad.testEnded();
            assertThat(dir.resolve("influx-bad-summary.txt")).as("the element works on without InfluxDB").exists();
        } finally {
            JMeterUtils.getJMeterProperties().remove(JvmStatsInflux.URL_PROPERTY);
            JMeterUtils.getJMeterProperties().remove(JvmStatsInflux.APPLICATION_PROPERTY);
            server.stop(0);
        }
    }

    @Test
    void theElementSerializesBeforeAndAfterATest() throws Exception {
        JvmStats s = element("self", "", "ser-summary");
        s.setPassword("s3cret");
        s.setProperty("source", "self");
        JvmStats before = roundTrip(s);
        assertThat(before.getPropertyAsString("source")).isEqualTo("self");
        assertThat(before.getSummaryFile()).isEqualTo("ser-summary");
        s.testStarted();
        JvmStats copy = roundTrip(s);
        s.testEnded();
        assertThat(copy.currentValues()).as("run state is transient").isNull();
    }

    private static JvmStats roundTrip(JvmStats s) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (JvmStats) in.readObject();
        }
    }

    @Test
    void everyPropertyHasANameAndADescription() throws Exception {
        ResourceBundle r = ResourceBundle.getBundle(JvmStats.class.getName() + "Resources");
        assertThat(r.getString("displayName")).isEqualTo("JVM Stats (TrustLoad)");
        int shown = 0;
        for (PropertyDescriptor p : new JvmStatsBeanInfo().getPropertyDescriptors()) {
            if (p.isHidden()) {
                continue;
            }
            shown++;
            assertThat(r.getString(p.getName() + ".displayName")).as(p.getName()).isNotBlank();
            assertThat(r.getString(p.getName() + ".shortDescription")).as(p.getName()).isNotBlank();
        }
        assertThat(shown).isEqualTo(9);
    }

    @Test
    void everyDefaultHasThePropertysTypeSoTheGuiLogsNoWarning() {
        for (PropertyDescriptor p : new JvmStatsBeanInfo().getPropertyDescriptors()) {
            Object def = p.getValue(org.apache.jmeter.testbeans.BeanInfoSupport.DEFAULT);
            if (p.isHidden() || def == null) {
                continue;
            }
            Class<?> type = p.getPropertyType().isPrimitive()
                    ? java.lang.invoke.MethodType.methodType(p.getPropertyType()).wrap().returnType()
                    : p.getPropertyType();
            assertThat(def).as(p.getName()).isInstanceOf(type);
        }
    }
}
