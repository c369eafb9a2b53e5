package org.trustload.harness.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.trustload.harness.sizing.SizingJson;

/**
 * What a {@code size} report measured of one operation, as {@code sizing.json} holds it: the figures a plan uses.
 *
 * @param file the sizing.json read
 * @param serverCpus the CPUs the server's share was counted against (its size)
 * @param serverLow the server's CPU ms per operation at low load; {@code serverKnee} at the knee (NaN unknown)
 * @param client the load generator's CPU ms per operation
 * @param engineCpus CPUs one load-generator JVM could use (0 unknown)
 * @param capacity operations/s at the objective (NaN: the search gave no server verdict)
 * @param verdict the verdict's kind ({@code server}, {@code client}, ...) and {@code limit} its words
 * @param samplesPerArrival top-level samples per iteration of the plan (an open-model arrival)
 */
public record Measured(Path file, String plan, String unit, String slo, int serverCpus, double serverLow,
                       double serverKnee, double client, int engineCpus, double capacity, String verdict, String limit,
                       double samplesPerArrival, String measuredAt, String machine, boolean warmSettled) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The server's CPU per operation a plan uses: the higher of low load and the knee (the conservative one). */
    public double serverMsPerOp() {
        if (Double.isNaN(serverLow)) {
            return serverKnee;
        }
        return Double.isNaN(serverKnee) ? serverLow : Math.max(serverLow, serverKnee);
    }

    /** Whether the report's capacity was limited by the server's CPU (else another limit, or none). */
    public boolean cpuLimited() {
        return verdict.equals("server") && limit.contains("CPU") && !limit.contains("other than CPU");
    }

    /**
     * Reads a report: a {@code sizing.json}, the {@code sizing/} folder or {@code sizing.md} beside it, or the
     * search's folder ({@code size-<timestamp>/}).
     */
    public static Measured read(Path where) throws IOException {
        Path f = where;
        if (Files.isDirectory(f)) {
            f = Files.exists(f.resolve("sizing.json")) ? f.resolve("sizing.json") : f.resolve("sizing/sizing.json");
        } else if (f.getFileName().toString().endsWith(".md")) {
            f = f.resolveSibling("sizing.json");
        }
        if (!Files.isRegularFile(f)) {
            throw new IOException("no size report at " + where
                    + " (a sizing.json, or the sizing/ folder that holds one,"
                    + " written by ./trustload size)");
        }
        JsonNode j = JSON.readTree(f.toFile());
        if (!SizingJson.FORMAT.equals(j.path("format").asText())) {
            throw new IOException(f + " is not a size report of format " + SizingJson.FORMAT);
        }
        JsonNode d = j.path("demand");
        return new Measured(f, j.path("plan").asText(), j.path("unit").asText("requests"), j.path("slo").asText(),
                j.path("serverCpus").asInt(0), num(d.at("/serverMsPerOpLow/value")),
                        num(d.at("/serverMsPerOpKnee/value")),
                num(d.at("/clientMsPerOp/value")), j.path("engineCpus").asInt(0), num(j.at("/verdict/capacity")),
                j.at("/verdict/kind").asText(""), j.at("/verdict/limit").asText(""), num(j.path("samplesPerArrival")),
                j.path("measuredAt").asText(""), j.path("machine").asText(""), j.at("/warmup/settled").asBoolean(true));
    }

    private static double num(JsonNode n) {
        return n == null || n.isMissingNode() || n.isNull() || !n.isNumber() ? Double.NaN : n.asDouble();
    }
}
