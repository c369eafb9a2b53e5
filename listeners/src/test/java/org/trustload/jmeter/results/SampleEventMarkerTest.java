package org.trustload.jmeter.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleEventMarkerTest {

    @TempDir
    static Path dir;

    @BeforeAll
    static void jmeterProperties() throws Exception {
        Path props = dir.resolve("jmeter.properties");
        Files.writeString(props, SampleEvent.SAMPLE_VARIABLES + "=" + SampleEventMarker.VARIABLE + "\n");
        JMeterUtils.loadJMeterProperties(props.toString());
        SampleEvent.initSampleVariables();
    }

    private static SampleResult result(String label) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(label);
        r.setSuccessful(true);
        r.setStampAndTime(1000, 0);
        return r;
    }

    /** The rows JMeter's CSV writer makes of one event: the sample's, then its sub-results'. */
    private static List<String> csv(SampleResult r) {
        SampleSaveConfiguration config = new SampleSaveConfiguration();
        config.setSubresults(true);
        r.setSaveConfig(config);
        StringWriter w = new StringWriter();
        try (PrintWriter out = new PrintWriter(w)) {
            CSVSaveService.saveSampleResult(new SampleEvent(r, "tg", JMeterContextService.getContext().getVariables()),
                    out);
        }
        return w.toString().lines().toList();
    }

    @Test
    void rowsOfOneEventShareAValueTheNextEventHasAnother() {
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        new SampleEventMarker().threadStarted();
        SampleResult parent = result("sign");
        parent.addSubResult(result("sign start"), false);
        parent.addSubResult(result("sign complete"), false);
        List<String> first = csv(parent);
        List<String> second = csv(result("sign"));
        String value = first.get(0).substring(first.get(0).lastIndexOf(',') + 1);
        assertThat(value).matches("\\d+\\.1");
        assertThat(first).hasSize(3).allSatisfy(row -> assertThat(row).endsWith("," + value));
        assertThat(second).singleElement()
                .satisfies(row -> assertThat(row).endsWith("," + value.replaceFirst("1$", "2")));
    }

    @Test
    void eachThreadCountsOnItsOwn() throws Exception {
        SampleEventMarker marker = new SampleEventMarker();
        String[] other = new String[1];
        Thread t = new Thread(() -> {
            JMeterContextService.getContext().setVariables(new JMeterVariables());
            marker.threadStarted();
            other[0] = JMeterContextService.getContext().getVariables().get(SampleEventMarker.VARIABLE);
        });
        JMeterContextService.getContext().setVariables(new JMeterVariables());
        marker.threadStarted();
        JMeterContextService.getContext().getVariables().get(SampleEventMarker.VARIABLE);
        t.start();
        t.join();
        String mine = JMeterContextService.getContext().getVariables().get(SampleEventMarker.VARIABLE);
        assertThat(other[0]).endsWith(".1");
        assertThat(mine).endsWith(".2");
        assertThat(other[0].substring(0, other[0].indexOf('.'))).as("threads apart")
                .isNotEqualTo(mine.substring(0, mine.indexOf('.')));
    }

    @Test
    void serializesForDistributedEngines() throws Exception {
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            out.writeObject(new SampleEventMarker());
        }
    }
}
