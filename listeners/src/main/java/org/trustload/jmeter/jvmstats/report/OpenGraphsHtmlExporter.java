package org.trustload.jmeter.jvmstats.report;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.report.config.ExporterConfiguration;
import org.apache.jmeter.report.config.ReportGeneratorConfiguration;
import org.apache.jmeter.report.dashboard.ExportException;
import org.apache.jmeter.report.dashboard.HtmlTemplateExporter;
import org.apache.jmeter.report.processor.SampleContext;
import org.apache.jmeter.util.JMeterUtils;

/**
 * JMeter's HTML dashboard exporter, with every custom graph drawn and open when the page loads. JMeter's
 * template opens and draws only the first custom graph; the others stay collapsed until clicked, so the
 * JVM Stats graphs of a run were mostly hidden. This exporter runs JMeter's, then opens the collapsed
 * panels in {@code content/pages/CustomsGraphs.html} and adds to {@code content/js/customGraph.js} a
 * call that draws every graph not yet drawn.
 */
public class OpenGraphsHtmlExporter extends HtmlTemplateExporter {

    static final String COLLAPSED = "class=\"collapse out portlet-content\"";
    static final String OPEN = "class=\"collapse in portlet-content\"";
    static final String DRAW_ALL = """

            // TrustLoad: draw every custom graph on load (JMeter's template draws the first only)
            $(document).ready(function() {
                $("#graphContainer .portlet").each(function() {
                    var draw = window["refresh" + this.id];
                    if (typeof draw === "function" && !isGraph($("#flotResponse" + this.id))) {
                        draw(true);
                    }
                });
            });
            """;

    @Override
    public void export(SampleContext context, File file, ReportGeneratorConfiguration configuration)
            throws ExportException {
        super.export(context, file, configuration);
        Path out = outputDir(configuration.getExportConfigurations().get(getName()));
        try {
            openAll(out);
        } catch (IOException e) {
            throw new ExportException("cannot open the custom graphs in " + out, e);
        }
    }

    /** Rewrites the generated custom graphs page and script in {@code out} (a dashboard folder). */
    static void openAll(Path out) throws IOException {
        Path page = out.resolve("content/pages/CustomsGraphs.html");
        Path script = out.resolve("content/js/customGraph.js");
        if (Files.exists(page)) {
            Files.writeString(page, Files.readString(page, StandardCharsets.UTF_8).replace(COLLAPSED, OPEN),
                    StandardCharsets.UTF_8);
        }
        if (Files.exists(script)) {
            String js = Files.readString(script, StandardCharsets.UTF_8);
            if (!js.contains(DRAW_ALL)) {
                Files.writeString(script, js + DRAW_ALL, StandardCharsets.UTF_8);
            }
        }
    }

    /** The dashboard folder, chosen as JMeter's exporter chooses it. */
    private static Path outputDir(ExporterConfiguration cfg) {
        String global = JMeterUtils.getProperty(JMeter.JMETER_REPORT_OUTPUT_DIR_PROPERTY);
        if (global != null && !global.isBlank()) {
            return Path.of(global);
        }
        String own = cfg == null ? null : cfg.getProperties().get("output_dir");
        return own != null && !own.isBlank() ? Path.of(own) : Path.of(JMeterUtils.getJMeterBinDir(), "report-output");
    }
}
