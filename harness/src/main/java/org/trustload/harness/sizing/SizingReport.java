package org.trustload.harness.sizing;

import org.trustload.common.Percentiles;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.trustload.slo.Objective;

/**
 * The sizing report in {@code sizing/}: {@code sizing.md} (the verdict, the sizing sentence, every step)
 * and {@code index.html} (the same with charts), with the charts drawn by JFreeChart as PNG files beside
 * them, so the page works offline: throughput and p99 against the offered load with the knee marked, and
 * the server's CPU per operation and the CPU shares against the load.
 */
public final class SizingReport {

    /** What ran. */
    public record Info(String plan, String jmx, String model, String slo, String unit, String server, int serverCpus,
                       boolean sharedHost, int engines, long stepMs, long warmupMs, double samplesPerArrival,
                       String machine, long seconds, List<String> notes, String properties) {
    }

    private SizingReport() {
    }

    /**
     * Writes the report into {@code dir} (sizing.md, index.html, the charts, sizing.json); returns the text the
     * launcher prints (sizing.md's head, the service demand and the steps).
     */
    public static String write(Path dir, Info info, List<Step> steps, Optional<Step> confirm, Verdict v,
                               ServiceDemand d) throws IOException {
        Files.createDirectories(dir);
        List<Step> sorted = new ArrayList<>(steps.stream().filter(s -> s.samples() > 0).toList());
        sorted.sort(Comparator.comparingDouble(Step::offered).thenComparing(Step::phase));
        boolean closed = info.model().equals("closed");
        String xLabel = closed ? "offered load (threads)" : "offered load (arrivals/s)";
        charts(dir, info, sorted, v, xLabel);
        String md = markdown(info, steps, confirm, v, d);
        Files.writeString(dir.resolve("sizing.md"), md);
        Files.writeString(dir.resolve("index.html"), html(info, steps, v, d));
        SizingJson.write(dir, info, steps, confirm, v, d);
        return head(info, v, d) + "\n" + demandLines(info, d) + "\n" + table(steps, info) + "\n";
    }

    /** The service demand in a few lines for the console. */
    private static String demandLines(Info info, ServiceDemand d) {
        String one = Verdict.singular(info.unit());
        StringBuilder sb = new StringBuilder("Service demand per " + one + " (sizing.json, for ./trustload plan):");
        sb.append(String.format(Locale.ROOT, "%n  server CPU   %s ms at low load, %s ms at the knee%s",
                ms(d.serverLow()), ms(d.serverKnee()), spread(d.serverLow())));
        sb.append(String.format(Locale.ROOT, "%n  load CPU     %s ms%s", ms(d.client()), spread(d.client())));
        sb.append(String.format(Locale.ROOT, "%n  server GC    %s ms%s", ms(d.serverGc()),
                Double.isNaN(d.gcsPerThousand()) ? ""
                        : ", " + Verdict.num(d.gcsPerThousand()) + " collections per 1,000"));
        sb.append(String.format(Locale.ROOT, "%n  warm-up      %s", d.warmup().text()));
        d.bracket().ifPresent(b -> sb.append(String.format(Locale.ROOT, "%n  open model   %s", b.text(info.unit()))));
        return sb.append('\n').toString();
    }

    private static String ms(ServiceDemand.Figure f) {
        return f.known() ? Verdict.ms(f.value()) : "-";
    }

    private static String spread(ServiceDemand.Figure f) {
        return f.steps() > 1 ? " (" + Verdict.ms(f.min()) + "-" + Verdict.ms(f.max()) + " over " + f.steps() + " steps)"
                : "";
    }

    private static String head(Info info, Verdict v, ServiceDemand d) {
        StringBuilder sb = new StringBuilder();
        sb.append("Sizing: ").append(info.plan()).append(" (").append(info.model()).append(" model, objective ")
                .append(info.slo())
                .append(")\n");
        sb.append("Verdict: ").append(switch (v.kind()) {
            case SERVER -> "capacity found, limited by " + v.limit();
            case CLIENT -> "client-bound, no verdict";
            case BELOW_START -> "no capacity: the objective broke at the lowest load";
            case NOT_REACHED -> "no limit reached";
            case HOST_BUSY -> "no verdict: the machine was busy with other work";
        }).append('\n');
        sb.append(v.sentence()).append('\n');
        d.bracket().ifPresent(b -> sb.append("Open model: ").append(b.text(info.unit())).append('\n'));
        return sb.toString();
    }

    private static String markdown(Info info, List<Step> steps, Optional<Step> confirm, Verdict v, ServiceDemand d) {
        StringBuilder sb = new StringBuilder("# Sizing of " + info.plan() + "\n\n");
        sb.append("**").append(v.sentence()).append("**\n\n");
        sb.append("| | |\n|---|---|\n");
        sb.append("| verdict | ").append(v.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(": ")
                .append(v.limit())
                .append(" |\n");
        v.best().ifPresent(b -> sb.append("| best step | ").append(b.phase()).append(" ")
                .append(Verdict.num(b.offered()))
                .append(info.model().equals("closed") ? " threads" : " arrivals/s").append(": ")
                .append(Verdict.num(b.achieved())).append(" ").append(info.unit()).append("/s, p99 ")
                        .append(Verdict.num(b.p99()))
                .append(" ms |\n"));
        v.knee().ifPresent(k -> sb.append("| knee | ").append(k.phase()).append(" ").append(Verdict.num(k.offered()))
                .append(": ")
                .append(k.good() ? "throughput stopped improving" : "broke " + String.join(", ", k.broken())
                        + (k.stoppedBy().isEmpty() ? "" : " (SLO Stop: " + k.stoppedBy().replaceFirst("^.*?: ", "")
                                + ")"))
                .append(" |\n"));
        d.bracket().ifPresent(b -> sb.append("| open model | ").append(b.text(info.unit())).append(" |\n"));
        confirm.ifPresent(c -> sb.append("| confirm | ").append(Verdict.num(c.achieved())).append(" ")
                .append(info.unit())
                .append("/s, p99 ").append(Verdict.num(c.p99())).append(" ms: ").append(c.good() ? "met the objective"
                        : "broke it")
                .append(" |\n"));
        v.knee().or(v::best)
                .filter(k -> !Double.isNaN(k.loadWaitMsPerOp()) && !Double.isNaN(Verdict.reference(k.p50(), k.mean())))
                .ifPresent(k -> sb.append("| load generator's wait | ")
                        .append(v.knee().isPresent() ? "at the knee" : "at the best step").append(": its threads ")
                        .append(Verdict.waitFigures(k.loadWaitMsPerOp(), k.p50(), k.mean(),
                                Verdict.singular(info.unit())))
                        .append(" |\n"));
        if (v.enginesNext() > 0) {
            sb.append("| next try | ").append(v.enginesNext())
                    .append(" engines on other machines (--remote HOST,...) |\n");
        }
        sb.append("| plan | ").append(info.plan()).append(" (`").append(info.jmx()).append("`) |\n");
        sb.append("| model | ").append(info.model()).append(info.model().equals("open")
                ? String.format(Locale.ROOT, " (Open Model Thread Group, random arrivals; %s samples per arrival)",
                Verdict.num(info.samplesPerArrival())) : " (threads looping without think time unless the plan has"
                        + " timers)")
                .append(" |\n");
        sb.append("| steps | ").append(info.stepMs() / 1000.0).append(" s each, the first ")
                .append(info.warmupMs() / 1000.0)
                .append(" s of each left out (warm-up) |\n");
        sb.append("| load generator | ").append(info.engines() == 1 ? "1 JMeter JVM" : info.engines()
                + " JMeter engines").append(" |\n");
        sb.append("| server watched | ").append(info.server()).append(info.serverCpus() > 0 ? ", " + info.serverCpus()
                + " CPUs" : "")
                .append(info.sharedHost() ? " (on this machine, beside the load generator)" : "").append(" |\n");
        sb.append("| properties | ").append(info.properties().isBlank() ? "(none given)" : info.properties())
                .append(" |\n");
        sb.append("| machine | ").append(info.machine()).append(" (at the end of the search); the search took ")
                .append(info.seconds()).append(" s |\n");
        for (String n : info.notes()) {
            sb.append("| note | ").append(n).append(" |\n");
        }
        sb.append('\n').append(d.markdown(info.unit(), info.model()));
        sb.append("![throughput](throughput.png)\n\n![latency](latency.png)\n\n![cpu](cpu.png)\n\n## Steps\n\n");
        sb.append(mdTable(steps, info));
        sb.append("\nPercentiles by the JMeter dashboard's method (commons-math3, LEGACY estimator) over the steady"
                + " window; CPU shares are of the CPUs each process may use; CPU per operation is CPU used in the"
                + " window divided by the top-level samples in it. Load wait ms/op: the time the load generator's"
                + " threads were ready to run but waited for a CPU (the run queue), over the samples: its own queueing"
                + " inside a response time, material from " + Math.round(100 * Verdict.WAIT_SHARE) + "% of the median;"
                + " server wait: a local server's run-queue wait, % of its CPUs' time. See docs/sizing.md.\n");
        return sb.toString();
    }

    private static String mdTable(List<Step> steps, Info info) {
        StringBuilder sb = new StringBuilder("| phase | offered | achieved/s | p50 ms | p90 ms | p95 ms | p99 ms |"
                + " errors | load CPU | load wait ms/op | server CPU | server wait | server ms/op | GCs (ms) | machine"
                + " | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Step s : steps) {
            sb.append(String.join(" | ", "| " + s.phase(), Verdict.num(s.offered()), Verdict.num(s.achieved()),
                    Verdict.num(s.p50()),
                    Verdict.num(s.p90()), Verdict.num(s.p95()), Verdict.num(s.p99()), String.format(Locale.ROOT,
                            "%.2f%%", s.errorPct()),
                    pct(s.loadCpuPct()), msOrDash(s.loadWaitMsPerOp()), pct(s.serverCpuPct()), pct(s.serverWaitPct()),
                    Double.isNaN(s.serverCpuMsPerOp()) ? "-" : Verdict.ms(s.serverCpuMsPerOp()),
                    s.serverGcs() < 0 ? "-" : s.serverGcs() + " (" + Verdict.num(s.serverGcMs()) + ")",
                            pct(s.machinePct()),
                    verdict(s))).append(" |\n");
        }
        return sb.toString();
    }

    private static String verdict(Step s) {
        if (s.good()) {
            return "met";
        }
        List<String> r = new ArrayList<>(s.broken());
        if (!s.stoppedBy().isEmpty()) {
            r.add("stopped by SLO Stop");
        }
        return "broke: " + String.join(", ", r);
    }

    private static String table(List<Step> steps, Info info) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%-8s %9s %11s %8s %8s %8s %7s %8s %8s %8s %9s  %s%n", "phase", "offered", info.unit() + "/s",
                "p50 ms", "p99 ms", "errors", "load", "wait/op", "server", "ms/op", "machine", "verdict"));
        for (Step s : steps) {
            sb.append(String.format(Locale.ROOT, "%-8s %9s %11s %8s %8s %7.2f%% %7s %8s %8s %8s %9s  %s%n", s.phase(),
                    Verdict.num(s.offered()), Verdict.num(s.achieved()), Verdict.num(s.p50()), Verdict.num(s.p99()),
                    s.errorPct(), pct(s.loadCpuPct()), msOrDash(s.loadWaitMsPerOp()), pct(s.serverCpuPct()),
                    Double.isNaN(s.serverCpuMsPerOp()) ? "-" : Verdict.ms(s.serverCpuMsPerOp()),
                    pct(s.machinePct()), verdict(s)));
        }
        return sb.toString();
    }

    private static String msOrDash(double v) {
        return Double.isNaN(v) ? "-" : Verdict.ms(v);
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f%%", v);
    }

    private static String html(Info info, List<Step> steps, Verdict v, ServiceDemand d) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sizing of ")
                .append(esc(info.plan()))
                .append("</title>\n<style>body{font-family:sans-serif;margin:1.5em;max-width:1300px}"
                        + "table{border-collapse:collapse;font-size:13px}"
                        + "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}th{background:#eee}"
                        + "td:first-child,td:last-child{text-align:left}"
                        + ".verdict{font-size:1.25em;padding:.6em;border-left:6px solid "
                        + (v.kind() == Verdict.Kind.SERVER ? "#2a7" : v.kind() == Verdict.Kind.CLIENT ? "#d62" : "#aa3")
                        + ";background:#f6f6f6}img{max-width:100%;border:1px solid #ddd;margin:.5em 0}.bad{color:#b22}"
                        + "</style></head><body>\n");
        sb.append("<h1>Sizing of ").append(esc(info.plan())).append("</h1>\n");
        sb.append("<p class=\"verdict\" id=\"sentence\">").append(esc(v.sentence())).append("</p>\n");
        sb.append("<p><b>Limit:</b> ").append(esc(v.limit())).append(". <b>Objective:</b> ").append(esc(info.slo()))
                .append(". <b>Model:</b> ").append(esc(info.model())).append(", steps of ")
                        .append(info.stepMs() / 1000.0)
                .append(" s (first ").append(info.warmupMs() / 1000.0).append(" s left out). <b>Server watched:</b> ")
                .append(esc(info.server())).append(". <b>Machine:</b> ").append(esc(info.machine())).append(".</p>\n");
        for (String n : info.notes()) {
            sb.append("<p>Note: ").append(esc(n)).append("</p>\n");
        }
        sb.append("<h2>Service demand</h2>\n<pre>").append(esc(demandLines(info, d))).append("</pre>\n");
        sb.append("<img src=\"throughput.png\" alt=\"throughput against offered load\">\n");
        sb.append("<img src=\"latency.png\" alt=\"response time percentiles against offered load\">\n");
        sb.append("<img src=\"cpu.png\" alt=\"CPU per operation and CPU shares against offered load\">\n");
        sb.append("<h2>Steps</h2>\n<table><tr><th>phase</th><th>offered</th><th>").append(esc(info.unit()))
                .append("/s</th><th>p50 ms</th><th>p90 ms</th><th>p95 ms</th><th>p99 ms</th><th>errors</th><th>load"
                        + " CPU</th><th>load wait ms/op</th><th>server CPU</th><th>server wait</th><th>server"
                        + " ms/op</th><th>GCs (ms)</th><th>machine</th><th>verdict</th></tr>\n");
        for (Step s : steps) {
            sb.append("<tr").append(s.good() ? "" : " class=\"bad\"").append("><td>").append(esc(s.phase()))
                    .append("</td>");
            for (String c : List.of(Verdict.num(s.offered()), Verdict.num(s.achieved()), Verdict.num(s.p50()),
                    Verdict.num(s.p90()),
                    Verdict.num(s.p95()), Verdict.num(s.p99()), String.format(Locale.ROOT, "%.2f%%", s.errorPct()),
                            pct(s.loadCpuPct()),
                    msOrDash(s.loadWaitMsPerOp()), pct(s.serverCpuPct()), pct(s.serverWaitPct()),
                    Double.isNaN(s.serverCpuMsPerOp()) ? "-" : Verdict.ms(s.serverCpuMsPerOp()),
                    s.serverGcs() < 0 ? "-" : s.serverGcs() + " (" + Verdict.num(s.serverGcMs()) + ")",
                            pct(s.machinePct()))) {
                sb.append("<td>").append(esc(c)).append("</td>");
            }
            sb.append("<td>").append(esc(verdict(s))).append("</td></tr>\n");
        }
        sb.append("</table>\n<p>Plan <code>").append(esc(info.jmx())).append("</code>; properties ")
                .append(esc(info.properties()))
                .append(". Percentiles by the JMeter dashboard's method. Generated by <code>./trustload size</code>;"
                        + " see docs/sizing.md.</p>\n</body></html>\n");
        return sb.toString();
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static void charts(Path dir, Info info, List<Step> sorted, Verdict v, String xLabel) throws IOException {
        XYSeries offered = new XYSeries("offered (ops/s)");
        XYSeries achieved = new XYSeries("achieved " + info.unit() + "/s", false, true);
        XYSeries p50 = new XYSeries("p50", false, true);
        XYSeries p90 = new XYSeries("p90", false, true);
        XYSeries p99 = new XYSeries("p99", false, true);
        XYSeries perOp = new XYSeries("server CPU per " + Verdict.singular(info.unit()) + " (ms)", false, true);
        XYSeries serverPct = new XYSeries("server CPU %", false, true);
        XYSeries loadPct = new XYSeries("load generator CPU %", false, true);
        for (Step s : sorted) {
            achieved.add(s.offered(), s.achieved());
            if (!Double.isNaN(s.offeredOps())) {
                offered.add(s.offered(), s.offeredOps());
            }
            add(p50, s.offered(), s.p50());
            add(p90, s.offered(), s.p90());
            add(p99, s.offered(), s.p99());
            add(perOp, s.offered(), s.serverCpuMsPerOp());
            add(serverPct, s.offered(), s.serverCpuPct());
            add(loadPct, s.offered(), s.loadCpuPct());
        }
        XYSeriesCollection t = new XYSeriesCollection(achieved);
        if (offered.getItemCount() > 0) {
            t.addSeries(offered);
        }
        JFreeChart tc = chart("Throughput against offered load", xLabel, info.unit() + "/s", t, v);
        ChartUtils.saveChartAsPNG(dir.resolve("throughput.png").toFile(), tc, 1000, 420);
        JFreeChart lc = chart("Response time against offered load (dashboard percentiles)", xLabel, "ms",
                new XYSeriesCollection(p99) {
                    {
                        addSeries(p90);
                        addSeries(p50);
                    }
                }, v);
        for (String rule : info.slo().split(",")) {
            try {
                Objective.Rule r = Objective.parse(rule).rules().get(0);
                if (r.isTime()) {
                    ValueMarker m = new ValueMarker(r.limit(), new Color(200, 40, 40), new BasicStroke(1.5f,
                            BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
                    m.setLabel("SLO " + r.text());
                    m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
                    m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
                    lc.getXYPlot().addRangeMarker(m);
                }
            } catch (IllegalArgumentException e) {
                // the rule was checked when the search started
            }
        }
        ChartUtils.saveChartAsPNG(dir.resolve("latency.png").toFile(), lc, 1000, 420);
        XYSeriesCollection pcts = new XYSeriesCollection();
        if (serverPct.getItemCount() > 0) {
            pcts.addSeries(serverPct);
        }
        if (loadPct.getItemCount() > 0) {
            pcts.addSeries(loadPct);
        }
        JFreeChart cc = chart(perOp.getItemCount() > 0 ? "Server CPU per operation and CPU shares against offered load"
                : "CPU shares against offered load (server not watched)", xLabel, "CPU % of its CPUs", pcts, v);
        if (perOp.getItemCount() > 0) {
            XYPlot plot = cc.getXYPlot();
            org.jfree.chart.axis.NumberAxis right = new org.jfree.chart.axis.NumberAxis("server CPU ms per operation");
            plot.setRangeAxis(1, right);
            plot.setDataset(1, new XYSeriesCollection(perOp));
            plot.mapDatasetToRangeAxis(1, 1);
            XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
            r.setSeriesPaint(0, new Color(30, 90, 200));
            r.setSeriesStroke(0, new BasicStroke(2.5f));
            plot.setRenderer(1, r);
        }
        ChartUtils.saveChartAsPNG(dir.resolve("cpu.png").toFile(), cc, 1000, 420);
    }

    private static void add(XYSeries s, double x, double y) {
        if (!Double.isNaN(y)) {
            s.add(x, y);
        }
    }

    private static JFreeChart chart(String title, String x, String y, XYSeriesCollection data, Verdict v) {
        JFreeChart c = ChartFactory.createXYLineChart(title, x, y, data, PlotOrientation.VERTICAL, true, false, false);
        c.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        c.setBackgroundPaint(Color.WHITE);
        XYPlot plot = c.getXYPlot();
        plot.setBackgroundPaint(new Color(250, 250, 250));
        plot.setDomainGridlinePaint(new Color(210, 210, 210));
        plot.setRangeGridlinePaint(new Color(210, 210, 210));
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(r);
        double minX = data.getSeriesCount() == 0 ? 0 : data.getDomainLowerBound(false);
        double maxX = data.getSeriesCount() == 0 ? 0 : data.getDomainUpperBound(false);
        if (minX > 0 && maxX / minX >= 8) {
            org.jfree.chart.axis.LogarithmicAxis log = new org.jfree.chart.axis.LogarithmicAxis(x);
            log.setAllowNegativesFlag(false);
            log.setStrictValuesFlag(false);
            plot.setDomainAxis(log);
        }
        v.best().ifPresent(b -> plot.addDomainMarker(marker(b.offered(), "best " + Verdict.num(b.offered()),
                new Color(40, 150, 80),
                RectangleAnchor.BOTTOM_RIGHT, TextAnchor.BOTTOM_LEFT)));
        v.knee().ifPresent(k -> plot.addDomainMarker(marker(k.offered(), "knee " + Verdict.num(k.offered()),
                new Color(200, 40, 40),
                RectangleAnchor.TOP_RIGHT, TextAnchor.TOP_LEFT)));
        return c;
    }

    private static ValueMarker marker(double x, String label, Color color, RectangleAnchor anchor, TextAnchor text) {
        ValueMarker m = new ValueMarker(x, color, new BasicStroke(1.5f));
        m.setLabel(label);
        m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        m.setLabelPaint(color);
        m.setLabelAnchor(anchor);
        m.setLabelTextAnchor(text);
        return m;
    }
}
