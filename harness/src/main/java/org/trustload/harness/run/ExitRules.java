package org.trustload.harness.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.trustload.harness.ExitStatus;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.results.Summary;
import org.trustload.harness.results.SummaryText;
import org.trustload.jmeter.slo.SloStop;
import org.trustload.slo.Objective;

/**
 * A finished run's exit status and why, from what it left (JMeter's status, the results, the console and logs), in the
 * order docs/harness.md gives: the first rule that applies decides.
 */
final class ExitRules {

    /** What a TrustLoad element's fail-fast check writes to the console and jmeter.log. */
    static final String CONFIG_ERROR_LINE = "TrustLoad configuration error";
    /** What the SLO Stop listener prints when its objective broke. */
    static final String SLO_STOP_LINE = SloStop.BROKEN_LINE;

    /**
     * The verdict.
     *
     * @param message why the status is not OK (empty when it is)
     * @param judged the objective's verdict over the steady window, with {@code --slo}
     * @param sloStopped SLO Stop's line when it stopped the test
     * @param reportFailed why the dashboard is missing, when it was asked for
     */
    record Verdict(ExitStatus status, String message, Optional<Judged> judged, Optional<String> sloStopped,
                   Optional<String> reportFailed) {
    }

    /**
     * The objective's verdict over the steady window.
     *
     * @param skipMs the ramp-up left out
     * @param whole the steady window held too few samples: the whole of Total was judged
     */
    record Judged(Summary.Stats window, long skipMs, boolean whole, List<String> broken) {

        String text(Objective slo) {
            StringBuilder sb = new StringBuilder(System.lineSeparator());
            String ramp = SummaryText.hms(skipMs / 1000);
            String over = whole ? String.format(Locale.ROOT,
                    "all %d samples of Total (fewer than %d ended after the %s ramp-up)",
                    window.count(), Summary.MIN_SAMPLES_FOR_STATS, ramp)
                    : skipMs > 0 ? String.format(Locale.ROOT,
                            "the steady window: the %d samples of Total that ended after the %s ramp-up",
                            window.count(), ramp)
                    : String.format(Locale.ROOT, "the steady window: all %d samples of Total (no ramp-up)",
                            window.count());
            if (window.count() == 0) {
                SummaryText.wrap(sb, "Objective " + slo + " (--slo): not judged, Total has no samples.");
            } else {
                SummaryText.wrap(sb, "Objective " + slo + " (--slo) over " + over + ": " + (broken.isEmpty() ? "met"
                        : "BROKEN - " + String.join(", ", broken)) + ".");
            }
            return sb.toString();
        }
    }

    private ExitRules() {
    }

    /**
     * @param summary null when the run wrote no readable results
     * @param readError why the results could not be read, or null
     * @param engines the run's engines, or null
     */
    static Verdict apply(RunSpec spec, Path dir, int jmeterStatus, String labDied, Engines engines, Map<String,
            Long> lost,
                         Summary summary, String readError) {
        String console = RunHeader.read(dir.resolve("console.txt")) + "\n" + RunHeader.read(dir.resolve("jmeter.log"));
        Optional<String> sloStopped = sloStopLine(console, engines);
        Optional<Judged> judged = spec.slo() == null || summary == null ? Optional.empty() : Optional.of(judge(spec,
                summary));
        Optional<String> reportFailed = spec.dashboard() && !Files.isRegularFile(dir.resolve("report/index.html"))
                ? Optional.of(!lost.isEmpty() ? "the controller was stopped as an engine had gone; bin/jmeter -g"
                        + " results.jtl -o report makes one from what arrived"
                        : console.lines().filter(l -> l.contains("Error generating the report")).findFirst()
                        .map(String::strip).orElse("JMeter wrote no report/index.html"))
                : Optional.empty();
        ExitStatus status = ExitStatus.OK;
        String message = "";
        Path log = dir.resolve("jmeter.log");
        if (readError != null) {
            status = ExitStatus.NOT_EXECUTED;
            message = readError;
        } else if (labDied != null) {
            status = ExitStatus.NOT_EXECUTED;
            message = "JMeter was stopped because " + labDied;
        } else if (!lost.isEmpty()) {
            status = ExitStatus.NOT_EXECUTED;
            message = "engine(s) stopped answering during the run: " + String.join(", ", lost.entrySet().stream()
                    .map(e -> e.getKey() + " (at " + DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC)
                            .format(Instant.ofEpochMilli(e.getValue()).truncatedTo(ChronoUnit.SECONDS))
                            + " UTC, " + (summary == null ? 0 : summary.samplesOfEngine(e.getKey()))
                                    + " samples received from it)")
                    .toList()) + "; the results hold what every engine sent before";
        } else if (jmeterStatus != 0) {
            status = ExitStatus.NOT_EXECUTED;
            message = jmeterStatus < 0 ? "JMeter did not finish in time; see " + log
                    : "JMeter exited with status " + jmeterStatus + "; see " + log;
        } else if ((summary != null && summary.configErrors() > 0) || console.contains(CONFIG_ERROR_LINE)) {
            // before "no results": an element that checks its configuration at test start stops the test
            // before any sample, and the user must learn what to fix, not that nothing ran
            status = ExitStatus.CONFIG_ERROR;
            long samples = summary == null ? 0 : summary.configErrors();
            message = console.lines().filter(l -> l.contains(CONFIG_ERROR_LINE)).findFirst()
                    .map(l -> l.substring(l.indexOf(CONFIG_ERROR_LINE)).strip() + "; ").orElse("")
                    + samples + " samples with response code " + Summary.CONFIG_ERROR_CODE + "; see "
                    + (samples > 0 ? "the top errors and " : "") + log;
        } else if (summary == null || summary.rows() == 0) {
            // JMeter can exit 0 and write nothing (e.g. a distributed engine refused the tree)
            status = ExitStatus.NOT_EXECUTED;
            message = "the run wrote no results; see " + log;
        } else if (engines != null && !missingEngines(engines, summary).isEmpty()) {
            status = ExitStatus.NOT_EXECUTED;
            message = "no samples from engine(s) " + String.join(",", missingEngines(engines, summary)) + "; see " + log
                    + " and " + dir + "/engine-*/";
        } else if (sloStopped.isPresent()) {
            // before "a thread group without samples": the objective stopped the test before later groups ran
            status = ExitStatus.SLO_BROKEN;
            message = sloStopped.get();
        } else {
            List<String> silent = silentThreadGroups(spec, summary);
            double pct = summary.total().errorPct();
            if (!silent.isEmpty()) {
                status = ExitStatus.THREAD_GROUP_WITHOUT_SAMPLES;
                message = "thread group(s) without a sample: " + String.join(", ", silent)
                        + " (did a setUp fail or the test stop early?); see " + log;
            } else if (pct > spec.maxErrorPct()) {
                status = ExitStatus.TOO_MANY_ERRORS;
                message = String.format(Locale.ROOT, "%.2f%% of %d samples failed, above --max-error-pct %s",
                        pct, summary.total().count(), RunHeader.trim(spec.maxErrorPct()));
            } else if (judged.isPresent() && !judged.get().broken().isEmpty()) {
                status = ExitStatus.SLO_BROKEN;
                message = "--slo " + spec.slo() + ": " + String.join(", ", judged.get().broken())
                        + " over the steady window";
            } else if (reportFailed.isPresent()) {
                status = ExitStatus.REPORT_FAILED;
                message = "the HTML report was not generated: " + reportFailed.get() + "; see " + log;
            }
        }
        return new Verdict(status, message, judged, sloStopped, reportFailed);
    }

    /** SLO Stop's line in the controller's console or log, or in an engine's log; without its trailing timestamp. */
    static Optional<String> sloStopLine(String console, Engines engines) {
        StringBuilder all = new StringBuilder(console);
        if (engines != null) {
            for (Path f : engines.logs()) {
                all.append('\n').append(RunHeader.read(f));
            }
        }
        return all.toString().lines().filter(l -> l.contains(SLO_STOP_LINE)).findFirst()
                .map(l -> l.substring(l.indexOf(SLO_STOP_LINE)).replaceFirst(" at \\d{13}$", "").strip());
    }

    /** The seconds skipped before the steady window: the plan's longest ramp-up with the run's properties, in ms. */
    static long rampUpMs(RunSpec spec) {
        long max = 0;
        for (PlanFile.ThreadGroup tg : spec.plan().threadGroups()) {
            max = Math.max(max, tg.rampUpSeconds(spec.properties()).orElse(0));
        }
        return max * 1000;
    }

    /**
     * Seconds the plan is scheduled to run: its longest thread group that loops until its scheduler stops it; 0 when
     * none does (a loop-count group's duration cap is a safety bound, not its length).
     */
    static long scheduledSeconds(RunSpec spec) {
        long max = 0;
        for (PlanFile.ThreadGroup tg : spec.plan().threadGroups()) {
            OptionalLong loops = PlanFile.resolve(tg.loops(), spec.properties());
            if (loops.isPresent() && loops.getAsLong() < 0) {
                max = Math.max(max, tg.scheduledSeconds(spec.properties()).orElse(0));
            }
        }
        return max;
    }

    static Judged judge(RunSpec spec, Summary summary) {
        long skip = rampUpMs(spec);
        Summary.Stats w = summary.steady(skip);
        boolean whole = skip > 0 && w.count() < Summary.MIN_SAMPLES_FOR_STATS;
        if (whole) {
            w = summary.steady(0);
        }
        return new Judged(w, skip, whole, spec.slo().broken(w.measured()));
    }

    /** Engines no sample came from: an engine that refused the plan contributes nothing while JMeter exits 0. */
    private static List<String> missingEngines(Engines engines, Summary s) {
        return engines.hosts().stream().filter(h -> !s.hasThreadsOfEngine(h)).toList();
    }

    /** Enabled thread groups with a sampler and a thread count that is not 0 that wrote no row. */
    static List<String> silentThreadGroups(RunSpec spec, Summary summary) {
        List<String> out = new ArrayList<>();
        for (PlanFile.ThreadGroup tg : spec.plan().threadGroups()) {
            OptionalLong threads = tg.threads(spec.properties());
            boolean runs = tg.hasSampler() && (threads.isEmpty() || threads.getAsLong() > 0);
            if (runs && !summary.hasThreadsOf(tg.name())) {
                out.add("'" + tg.name() + "'");
            }
        }
        return out;
    }
}
