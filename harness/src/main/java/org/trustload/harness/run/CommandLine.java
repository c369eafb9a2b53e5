package org.trustload.harness.run;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.trustload.common.Percentiles;
import org.trustload.harness.Layout;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.results.Jtl;

/**
 * JMeter's command line for one run: the plan, the results layout, the lab's and the user's properties, the engines.
 */
final class CommandLine {

    static final String SAMPLE_VARIABLES = "sample_variables";
    /**
     * JMeter's property for the dashboard's scratch folder (ReportGenerator; default {@code temp} in the working
     * directory).
     */
    static final String REPORT_TEMP_PROPERTY = "jmeter.reportgenerator.temp_dir";
    /** This run's dashboard scratch folder, inside its results folder (removed after the run). */
    static final String REPORT_TEMP = ".report-temp";

    private CommandLine() {
    }

    /**
     * The arguments after {@code java -jar ApacheJMeter.jar}.
     *
     * @param copy the plan's run copy (with the harness's elements), empty when the plan runs as it is
     */
    static List<String> of(Layout layout, RunSpec spec, Environment env, Path dir, Optional<Path> copy,
            PrintStream log) {
        List<String> args = new ArrayList<>(List.of("-n", "-t", copy.orElse(spec.jmx()).toString()));
        Engines engines = env.engines();
        if (engines != null) {
            if (env.ownsEngines()) {
                args.add("-X"); // the engines exit at the end of the test (close() covers failures)
            }
            args.addAll(engines.controllerArgs());
            // JVM Stats: a separate target (JMX, PID) is polled by the first engine only; engines write
            // their summaries into the results folder too
            args.add("-Gtrustload.jvmstats.remote_poller=" + engines.hosts().get(0));
            if (!engines.isRemote()) {
                // a folder of this host: remote engines write theirs locally
                args.add("-Gtrustload.results.dir=" + dir);
            }
            if (env.lab() != null) {
                args.add("-G" + env.lab().properties());
            }
            // -J is local to the controller: send the user's properties to the engines too
            List<String> user = spec.jmeterArgs();
            for (int i = 0; i < user.size(); i++) {
                String a = user.get(i);
                if (a.equals("-q") && i + 1 < user.size()) {
                    args.add("-G" + user.get(++i)); // JMeter sends a -G file's properties
                } else if (a.startsWith("-J")) {
                    args.add("-G" + a.substring(2));
                }
            }
        }
        // jmeterengine.nongui.port=0: no UDP shutdown listener (it would bind all interfaces)
        // bin/trustload.properties: dashboard graphs of the JVM Stats listener
        args.addAll(List.of("-q", layout.trustloadProperties().toString(), "-Jtrustload.results.dir=" + dir));
        if (env.lab() != null) {
            args.addAll(List.of("-q", env.lab().properties().toString()));
        }
        args.addAll(List.of("-Jsummariser.interval=5", "-Jjmeterengine.nongui.port=0"));
        // the dashboard's scratch folder (default "temp" in the working directory) of this run alone: two runs
        // sharing one deleted it under each other ("Error generating the report")
        args.add("-J" + REPORT_TEMP_PROPERTY + "=" + dir.resolve(REPORT_TEMP));
        args.addAll(spec.jmeterArgs());
        // -Jinflux.url: JMeter's Backend Listener in the copy
        args.addAll(Influx.stream(spec, copy, engines != null, log));
        // after the user's: the summary and the dashboard must agree on every percentile (Percentiles)
        args.add("-J" + Percentiles.DASHBOARD_WINDOW_PROPERTY + "=" + Percentiles.DASHBOARD_WINDOW_PROPERTY_VALUE);
        sampleVariables(spec, copy.isPresent(), engines != null, copy.isPresent() && spec.remoteRun())
                .ifPresent(v -> args.add("-J" + SAMPLE_VARIABLES + "=" + v));
        args.addAll(spec.resultsFile() ? List.of("-l", dir.resolve("results.jtl").toString(), "-j",
                dir.resolve("jmeter.log").toString())
                : List.of("-j", dir.resolve("jmeter.log").toString()));
        if (spec.dashboard()) {
            args.addAll(List.of("-e", "-o", dir.resolve("report").toString()));
        }
        return args;
    }

    /**
     * The {@code sample_variables} the run needs, after the user's own: the event marker's column (when the
     * plan runs with it) and, in distributed mode, the JVM Stats columns (the listener lists them where it
     * runs, the engines; the controller writes the results file and needs the list from the start, and JMeter
     * sends it to the engines). Empty when there is nothing to add.
     */
    static Optional<String> sampleVariables(RunSpec spec, boolean marker, boolean distributed, boolean engineLoad) {
        List<String> names = new ArrayList<>();
        for (String n : spec.properties().getOrDefault(SAMPLE_VARIABLES, "").split(",")) {
            if (!n.isBlank() && !names.contains(n.strip())) {
                names.add(n.strip());
            }
        }
        int given = names.size();
        if (marker && !names.contains(Jtl.EVENT_COLUMN)) {
            names.add(Jtl.EVENT_COLUMN);
        }
        if (engineLoad && !names.contains(PlanFile.ENGINE_LOAD_COLUMN)) {
            names.add(PlanFile.ENGINE_LOAD_COLUMN);
        }
        if (distributed) {
            spec.plan().jvmStatsColumns().ifPresent(c -> names.addAll(List.of(c.split(",")).stream()
                    .filter(n -> !names.contains(n)).toList()));
        }
        return names.size() == given ? Optional.empty() : Optional.of(String.join(",", names));
    }
}
