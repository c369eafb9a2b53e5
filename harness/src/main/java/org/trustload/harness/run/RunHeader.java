package org.trustload.harness.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.harness.results.Summary;
import org.trustload.harness.results.SummaryText;

/** The run summary's header: what ran, against what, on which engines, how the thread groups ran and for how long. */
public final class RunHeader {

    /**
     * A thread group's samples count as cut by its cap when they span the cap less this (threads stop between samples).
     */
    static final long CAP_SLACK_MS = 2000;

    private RunHeader() {
    }

    /** What each remote engine sent, and which stopped answering during the run. */
    static String engineLines(Engines engines, Summary summary, Map<String, Long> lost) {
        StringBuilder sb = new StringBuilder();
        for (String h : engines.hosts()) {
            Long at = lost.get(h);
            sb.append("Engine:     ").append(h).append(": ").append(summary.samplesOfEngine(h)).append(" samples")
                    .append(engines.cpus().containsKey(h) ? ", " + engines.cpus().get(h) + " CPUs" : "")
                    .append(at == null ? "" : ", STOPPED ANSWERING at "
                            + DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC)
                            .format(Instant.ofEpochMilli(at).truncatedTo(ChronoUnit.SECONDS))
                                    + " UTC (its samples until then)")
                    .append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** The summary's first lines: plan, target, load, thread groups as they ran, time, properties (secrets masked). */
    static String header(RunSpec spec, String target, Engines engines, Instant started, Summary summary) {
        Map<String, String> props = spec.maskedProperties();
        Map<String, String> raw = spec.properties();
        StringBuilder sb = new StringBuilder();
        sb.append("Plan:       ").append(spec.planId()).append(" (").append(spec.jmx()).append(")")
                .append(System.lineSeparator());
        sb.append("Target:     ").append(target).append(System.lineSeparator());
        sb.append("Load:       ").append(engines == null ? "this JVM" : engines.isRemote()
                        ? engines.hosts().size() + " remote engines (each runs every thread group; this controller at "
                                + engines.rmiHost() + ")"
                        : engines.hosts().size() + " engines on 127.0.0.1 (each runs every thread group)")
                .append(System.lineSeparator());
        int engineCount = engines == null ? 1 : engines.hosts().size();
        for (PlanFile.ThreadGroup tg : spec.plan().threadGroups()) {
            sb.append("Threads:    ").append(threadsLine(tg, raw, summary, engineCount)).append(System.lineSeparator());
            inside(tg, raw).ifPresent(line -> sb.append("            ").append(line).append(System.lineSeparator()));
            if (summary != null) {
                planned(tg, raw, summary, engineCount).ifPresent(line -> sb.append("            ").append(line)
                        .append(System.lineSeparator()));
            }
        }
        long wall = Duration.between(started, Instant.now()).toSeconds();
        sb.append("Started:    ").append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.withZone(ZoneOffset.UTC)
                .format(started.truncatedTo(ChronoUnit.SECONDS)))
                .append(" UTC, ").append(SummaryText.hms(wall)).append(" in all (lab, JMeter, report)");
        if (summary != null && summary.total().count() + summary.warmUp().count() > 0) {
            long from = Math.min(summary.total().firstStart(), summary.warmUp().firstStart());
            long to = Math.max(summary.total().lastEnd(), summary.warmUp().lastEnd());
            sb.append("; samples over ").append(SummaryText.hms((to - from) / 1000));
        }
        sb.append(System.lineSeparator());
        sb.append("Properties: ").append(props.isEmpty() ? "(none given)" : String.join(" ",
                props.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()))
                        .append(System.lineSeparator());
        return sb.toString();
    }

    /**
     * A thread group as it ran: {@code "Searchers: 20 threads, 25 loops, ramp-up 5 s, at most 00:10:00 (duration
     * cap)"}, with the run's properties applied, and the threads that wrote a sample when that differs (a test stopped
     * early).
     */
    public static String threadsLine(PlanFile.ThreadGroup tg, Map<String, String> props, Summary summary, int engines) {
        OptionalLong threads = tg.threads(props);
        OptionalLong loops = PlanFile.resolve(tg.loops(), props);
        OptionalLong secs = tg.scheduledSeconds(props);
        OptionalLong ramp = tg.rampUpSeconds(props);
        StringBuilder line = new StringBuilder(tg.name()).append(": ")
                .append(threads.isPresent() ? plural(threads.getAsLong(), "thread")
                        : tg.threads().isBlank() ? "threads as its arrivals need (open model)" : tg.threads()
                                + " threads")
                .append(engines > 1 ? " on each of " + engines + " engines" : "")
                .append(loops.isPresent() ? (loops.getAsLong() < 0 ? ", loops until stopped" : ", "
                        + plural(loops.getAsLong(), "loop"))
                        : "")
                .append(ramp.isPresent() && ramp.getAsLong() > 0 ? ", ramp-up " + ramp.getAsLong() + " s" : "")
                .append(secs.isPresent() ? ", at most " + SummaryText.hms(secs.getAsLong()) + " (duration cap)" : "");
        if (summary != null && threads.isPresent() && tg.hasSampler()) {
            int ran = summary.threadsRan(tg.name());
            if (ran != threads.getAsLong() * engines) {
                line.append("; ").append(ran).append(ran == 1 ? " thread" : " threads").append(" wrote samples");
            }
        }
        return line.toString();
    }

    /**
     * What repeats inside one loop of a thread group, with the run's properties applied:
     * {@code "each loop: Loop Controllers of 1, 100, 1000 iterations; Runtime Controllers of 10 s"}; empty when nothing
     * does.
     */
    public static Optional<String> inside(PlanFile.ThreadGroup tg, Map<String, String> props) {
        List<String> parts = new ArrayList<>();
        List<String> loops = distinct(tg.loopsInside(), props);
        if (!loops.isEmpty()) {
            parts.add((loops.size() == 1 && tg.loopsInside().size() == 1 ? "a Loop Controller of "
                    : "Loop Controllers of ")
                    + String.join(", ", loops) + (loops.equals(List.of("1")) ? " iteration" : " iterations"));
        }
        List<String> seconds = distinct(tg.secondsInside(), props);
        if (!seconds.isEmpty()) {
            parts.add((tg.secondsInside().size() == 1 ? "a Runtime Controller of " : "Runtime Controllers of ")
                    + String.join(", ", seconds) + " s");
        }
        return parts.isEmpty() ? Optional.empty() : Optional.of("each loop: " + String.join("; ", parts));
    }

    /**
     * The distinct values as JMeter would read them, numbers sorted ({@code -1}: "forever"); unresolvable ones as
     * written.
     */
    private static List<String> distinct(List<String> written, Map<String, String> props) {
        TreeSet<Long> numbers = new TreeSet<>();
        LinkedHashSet<String> other = new LinkedHashSet<>();
        for (String w : written) {
            OptionalLong v = PlanFile.resolve(w, props);
            if (v.isPresent()) {
                numbers.add(v.getAsLong());
            } else {
                other.add(w);
            }
        }
        List<String> out = new ArrayList<>();
        numbers.forEach(n -> out.add(n < 0 ? "forever" : Long.toString(n)));
        out.addAll(other);
        return out;
    }

    private static String plural(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    /**
     * For a loop-count thread group: what its loops asked for and what ran, and whether the duration cap
     * ended it ("planned 12500, ran 10000, cut by the cap (00:10:00)"); empty for groups that loop until
     * stopped (the cap is their length) and groups without samplers.
     */
    static Optional<String> planned(PlanFile.ThreadGroup tg, Map<String, String> props, Summary summary, int engines) {
        OptionalLong loops = PlanFile.resolve(tg.loops(), props);
        if (!tg.hasSampler() || loops.isEmpty() || loops.getAsLong() < 0) {
            return Optional.empty();
        }
        OptionalLong perEngine = tg.plannedSamples(props);
        OptionalLong planned = perEngine.isPresent() ? OptionalLong.of(perEngine.getAsLong() * engines) : perEngine;
        Summary.Stats ran = summary.threadGroup(tg.name());
        OptionalLong cap = tg.durationSeconds(props);
        boolean fewer = planned.isEmpty() || ran.count() < planned.getAsLong();
        boolean cut = cap.isPresent() && fewer && ran.count() > 0
                && ran.spanMs() >= cap.getAsLong() * 1000 - CAP_SLACK_MS;
        StringBuilder line = new StringBuilder();
        if (planned.isPresent()) {
            line.append("planned ").append(planned.getAsLong()).append(", ran ").append(ran.count());
            if (cut) {
                line.append(", cut by the cap (").append(SummaryText.hms(cap.getAsLong())).append(")");
            } else if (ran.count() < planned.getAsLong()) {
                line.append(", ").append(planned.getAsLong() - ran.count()).append(" not run (the test stopped early)");
            }
        } else if (cut) {
            line.append("ran ").append(ran.count()).append(", cut by the cap (")
                    .append(SummaryText.hms(cap.getAsLong()))
                    .append(") before its loops were done");
        } else {
            return Optional.empty(); // its controllers decide the count: nothing to compare
        }
        return Optional.of(line.toString());
    }


    static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
