package org.trustload.jmeter.jvmstats.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenGraphsHtmlExporterTest {

    @Test
    void everyCollapsedCustomGraphIsOpenedAndTheDrawCallIsAddedOnce(@TempDir Path report) throws Exception {
        Path page = Files.createDirectories(report.resolve("content/pages")).resolve("CustomsGraphs.html");
        Path script = Files.createDirectories(report.resolve("content/js")).resolve("customGraph.js");
        Files.writeString(page, "<div " + OpenGraphsHtmlExporter.OPEN + " id=\"a\"></div>\n<div "
                + OpenGraphsHtmlExporter.COLLAPSED + " id=\"b\"></div>\n<div " + OpenGraphsHtmlExporter.COLLAPSED
                + " id=\"c\"></div>\n");
        Files.writeString(script, "function refreshcustom_a(fix) {}\n");
        OpenGraphsHtmlExporter.openAll(report);
        OpenGraphsHtmlExporter.openAll(report);
        assertThat(Files.readString(page)).doesNotContain("collapse out").contains("id=\"b\"", "id=\"c\"");
        String js = Files.readString(script);
        assertThat(js).startsWith("function refreshcustom_a(fix) {}");
        assertThat(js.split("draw every custom graph on load", -1)).as("added once").hasSize(2);
    }

    @Test
    void aDashboardWithoutCustomGraphsIsLeftAlone(@TempDir Path report) throws Exception {
        OpenGraphsHtmlExporter.openAll(report);
        assertThat(report.resolve("content")).doesNotExist();
    }
}
