package org.trustload.harness.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.trustload.harness.HarnessException;
import org.trustload.harness.JMeter;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.engine.Preflight;

/**
 * What a plan runs in: the lab (or the real server its properties name) and JMeter's engines (none, local or on other
 * hosts, checked by the {@link Preflight} before anything runs). {@code run} opens one per run, {@code size} one for
 * its whole search; what a caller handed in ({@link RunSpec#sharedLab()}, {@link RunSpec#sharedEngines()}) is used
 * and never stopped. {@link #close()} stops what it started and removes the lab's private folder (its passwords).
 */
public final class Environment implements AutoCloseable {

    private final JMeter jmeter;
    private final RunSpec spec;
    private final Path dir;
    private final PrintStream log;
    private final Path labDir;
    private volatile Lab lab;
    private volatile Engines engines;
    private boolean ownsLab;
    private boolean ownsEngines;
    private Preflight.Result checked;
    private String target;

    private Environment(JMeter jmeter, RunSpec spec, Path dir, PrintStream log) throws IOException {
        this.jmeter = jmeter;
        this.spec = spec;
        this.dir = dir;
        this.log = log;
        this.labDir = Layout.privateTempDir("trustload-lab");
    }

    /**
     * Sets up what {@code spec} asks for, logs to {@code dir} ({@code lab.log}, {@code engine-I/}, {@code preflight/}).
     *
     * @param what what the engines must be able to run, for messages ("the test", "the search")
     * @throws HarnessException (not executed) when the lab or an engine cannot start or the engines cannot run the plan
     */
    public static Environment open(JMeter jmeter, RunSpec spec, Path dir, String what, PrintStream log)
            throws IOException, InterruptedException, HarnessException {
        Environment env = new Environment(jmeter, spec, dir, log);
        try {
            env.setUp(what);
            return env;
        } catch (HarnessException | IOException | InterruptedException | RuntimeException e) {
            env.close();
            throw e;
        }
    }

    private void setUp(String what) throws IOException, InterruptedException, HarnessException {
        List<String> labArgs = new ArrayList<>(spec.labArgs());
        Engines remote = null;
        if (spec.sharedEngines() == null && !spec.remote().isEmpty()) {
            // before the lab: it must listen where the engines reach this host
            log.println("trustload: checking the remote engines " + String.join(",", spec.remote()));
            Engines.Probe probe = Engines.probe(spec.remote(), spec.rmiDir());
            if (!probe.problems().isEmpty()) {
                throw HarnessException.notExecuted(problems("the remote engines cannot run " + what, probe.problems()
                        .entrySet()
                        .stream().map(e -> "engine " + e.getKey() + ": " + e.getValue()).toList()));
            }
            if (spec.controllerAddress() == null && !probe.differing().isEmpty()) {
                throw HarnessException.notExecuted("the engines reach this host at different addresses ("
                        + probe.differing()
                        + "): JMeter announces one; give it with --controller ADDRESS");
            }
            remote = Engines.remote(spec.remote(), spec.rmiDir(), spec.controllerAddress() != null
                    ? spec.controllerAddress()
                    : probe.controller().orElseThrow());
            engines = remote;
            labArgs.addAll(List.of("--bind", remote.rmiHost()));
        }
        if (spec.sharedLab() != null) {
            lab = spec.sharedLab();
            target = "the lab (" + lab.readyLine() + ")";
        } else if (spec.useLab(log)) {
            String services = String.join(",", spec.services());
            log.println("trustload: starting lab services '" + services + "' (log: " + dir.resolve("lab.log") + ")");
            lab = Lab.start(jmeter.layout(), services, labDir.resolve("lab.properties"), dir.resolve("lab.log"),
                    labArgs,
                    spec.labTimeout());
            ownsLab = true;
            log.println("trustload: " + lab.readyLine());
            spec.onLabReady().accept(lab);
            target = "the lab (services " + services + ")";
        } else {
            target = targetDescription();
        }
        if (spec.sharedEngines() != null) {
            engines = spec.sharedEngines();
        } else if (remote != null) {
            // what they need, checked (and shipped) before the test, with this run's properties
            Map<String, String> props = new LinkedHashMap<>(labProperties());
            props.putAll(spec.properties());
            checked = Preflight.check(jmeter, remote, spec.plan(), props, dir.resolve("preflight"),
                    spec.engineTimeout(), log);
            if (!checked.ok()) {
                throw HarnessException.notExecuted(problems("the remote engines cannot run " + what + " (checked before"
                        + " it started; see " + dir.resolve("preflight") + ")", checked.problems()));
            }
            Map<String, Integer> cpus = remote.cpus();
            log.println("trustload: remote engines ready: " + String.join(", ", remote.hosts().stream()
                    .map(h -> h + (cpus.containsKey(h) ? " (" + cpus.get(h) + " CPUs)" : "")).toList())
                    + "; this controller at " + remote.rmiHost());
        } else if (spec.engines() > 0) {
            log.println("trustload: starting " + spec.engines() + " JMeter engines (RMI over SSL, 127.0.0.1, logs: "
                    + dir
                    + "/engine-*)");
            engines = Engines.start(jmeter, spec.engines(), dir, spec.rmiDir(), spec.workDir(), spec.engineTimeout(),
                    log);
            ownsEngines = true;
            log.println("trustload: engines ready on " + String.join(",", engines.hosts()));
        }
    }

    /** The lab the plan runs against, or null. */
    public Lab lab() {
        return lab;
    }

    /** The engines, or null when JMeter runs the plan itself. */
    public Engines engines() {
        return engines;
    }

    /** Whether these engines were started for this environment alone (they may exit with the test: {@code -X}). */
    public boolean ownsEngines() {
        return ownsEngines;
    }

    /** What the plan runs against, for the summary: the lab, a real server, what the plan's properties name. */
    public String target() {
        return target;
    }

    /** The lab's properties (endpoints, passwords), or none. */
    public Map<String, String> labProperties() throws IOException {
        return lab == null ? Map.of() : RunSpec.load(lab.properties());
    }

    private String targetDescription() {
        Map<String, String> props = spec.maskedProperties();
        List<String> set = spec.targets().stream().filter(props::containsKey).map(t -> t + "=" + props.get(t)).toList();
        if (!set.isEmpty()) {
            return "a real server (" + String.join(", ", set) + ")";
        }
        if (spec.services().isEmpty()) {
            return "what the plan's properties name (the plan needs no lab)";
        }
        return "no lab (--no-lab): what the plan's properties name";
    }

    /** A title and its lines, one per problem, as one message. */
    static String problems(String title, List<String> lines) {
        return title + ":" + System.lineSeparator() + "  " + String.join(System.lineSeparator() + "  ", lines);
    }

    /** Stops what this environment started, at once (a shutdown hook: the launcher got SIGTERM). */
    void stopNow() {
        try {
            stopOwned();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            System.err.println("trustload: cannot remove " + labDir + ": " + e);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            if (checked != null) {
                Preflight.tidy(jmeter, engines, checked, dir.resolve("preflight-tidy"), spec.engineTimeout(), log);
            }
        } finally {
            stopOwned();
        }
    }

    /** Stops the engines and the lab this environment started, and removes the lab's private folder. */
    private void stopOwned() throws IOException, InterruptedException {
        if (ownsEngines && engines != null) {
            engines.close();
        }
        if (ownsLab && lab != null) {
            lab.close();
        }
        Layout.deleteRecursively(labDir);
    }
}
