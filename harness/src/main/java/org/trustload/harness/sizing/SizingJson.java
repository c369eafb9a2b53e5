package org.trustload.harness.sizing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code sizing.json}: the search's figures for programs ({@code ./trustload plan} reads it). The field names are
 * an API (docs/sizing.md#sizingjson): add fields, never rename them. Unknown figures are {@code null}.
 */
public final class SizingJson {

    /** The {@code format} field's value; a reader refuses another. */
    public static final String FORMAT = "trustload-sizing/1";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SizingJson() {
    }

    /** Writes {@code sizing.json} into {@code dir}. */
    public static Path write(Path dir, SizingReport.Info info, List<Step> steps, Optional<Step> confirm, Verdict v,
                             ServiceDemand d) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("plan", info.plan());
        root.put("jmx", info.jmx());
        root.put("model", info.model());
        root.put("slo", info.slo());
        root.put("unit", info.unit());
        root.put("server", info.server());
        root.put("serverCpus", info.serverCpus());
        root.put("sharedHost", info.sharedHost());
        root.put("engines", d.engines());
        root.put("engineCpus", d.engineCpus());
        num(root, "stepSeconds", info.stepMs() / 1000.0);
        num(root, "warmupSeconds", info.warmupMs() / 1000.0);
        num(root, "samplesPerArrival", info.samplesPerArrival());
        root.put("machine", info.machine());
        root.put("measuredAt", Instant.now().toString());
        root.put("searchSeconds", info.seconds());
        root.put("properties", info.properties());
        ObjectNode verdict = root.putObject("verdict");
        verdict.put("kind", v.kind().name().toLowerCase(Locale.ROOT));
        verdict.put("limit", v.limit());
        verdict.put("sentence", v.sentence());
        num(verdict, "capacity", d.capacity());
        ObjectNode demand = root.putObject("demand");
        figure(demand, "serverMsPerOpLow", d.serverLow());
        figure(demand, "serverMsPerOpKnee", d.serverKnee());
        figure(demand, "clientMsPerOp", d.client());
        figure(demand, "serverGcMsPerOp", d.serverGc());
        num(demand, "serverGcsPerThousand", d.gcsPerThousand());
        ObjectNode warm = root.putObject("warmup");
        ArrayNode ms = warm.putArray("msPerOp");
        d.warmup().msPerOp().forEach(x -> {
            if (Double.isNaN(x)) {
                ms.addNull();
            } else {
                ms.add(x);
            }
        });
        warm.put("steps", d.warmup().steps());
        num(warm, "seconds", d.warmup().ms() / 1000.0);
        warm.put("settled", d.warmup().settled());
        if (d.bracket().isPresent()) {
            ServiceDemand.Bracket b = d.bracket().get();
            ObjectNode br = root.putObject("bracket");
            num(br, "met", b.met());
            num(br, "metOps", b.metOps());
            num(br, "broke", b.broke());
            num(br, "brokeOps", b.brokeOps());
        } else {
            root.putNull("bracket");
        }
        ArrayNode arr = root.putArray("steps");
        steps.forEach(s -> step(arr.addObject(), s));
        if (confirm.isPresent()) {
            step(root.putObject("confirm"), confirm.get());
        } else {
            root.putNull("confirm");
        }
        Path f = dir.resolve("sizing.json");
        Files.writeString(f, JSON.writeValueAsString(root) + "\n");
        return f;
    }

    private static void step(ObjectNode o, Step s) {
        o.put("phase", s.phase());
        o.put("index", s.index());
        num(o, "offered", s.offered());
        num(o, "offeredOps", s.offeredOps());
        num(o, "windowSeconds", s.windowSeconds());
        num(o, "achieved", s.achieved());
        o.put("samples", s.samples());
        o.put("errors", s.errors());
        num(o, "p50", s.p50());
        num(o, "p90", s.p90());
        num(o, "p95", s.p95());
        num(o, "p99", s.p99());
        num(o, "loadCpuPct", s.loadCpuPct());
        num(o, "loadCpuMsPerOp", s.loadCpuMsPerOp());
        num(o, "loadWaitMsPerOp", s.loadWaitMsPerOp());
        num(o, "serverCpuPct", s.serverCpuPct());
        num(o, "serverCpuMsPerOp", s.serverCpuMsPerOp());
        if (s.serverGcs() >= 0) {
            o.put("serverGcs", s.serverGcs());
        } else {
            o.putNull("serverGcs");
        }
        num(o, "serverGcMs", s.serverGcMs());
        num(o, "machinePct", s.machinePct());
        o.put("good", s.good());
        ArrayNode broken = o.putArray("broken");
        s.broken().forEach(broken::add);
        o.put("stoppedBy", s.stoppedBy());
    }

    private static void figure(ObjectNode parent, String name, ServiceDemand.Figure f) {
        ObjectNode o = parent.putObject(name);
        num(o, "value", f.value());
        num(o, "min", f.min());
        num(o, "max", f.max());
        o.put("steps", f.steps());
        o.put("phase", f.phase());
        num(o, "load", f.load());
    }

    private static void num(ObjectNode o, String name, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.putNull(name);
        } else {
            o.put(name, v);
        }
    }
}
