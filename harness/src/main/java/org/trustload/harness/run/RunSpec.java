package org.trustload.harness.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.trustload.harness.Catalog;
import org.trustload.harness.Lab;
import org.trustload.harness.Layout;
import org.trustload.harness.engine.Engines;
import org.trustload.harness.host.HostMonitor;
import org.trustload.harness.jmx.PlanFile;
import org.trustload.slo.Objective;

/**
 * What one run is to do, fixed before it starts: the plan (loaded once, on first use), its properties (the {@code -q}
 * files read once, and masked for the summary), the environment it asks for and what the run writes. Built with
 * {@link Builder}; defaults are the launcher's.
 *
 * @param properties the user's -J and -q properties
 * @param maskedProperties the same with secret values (and every -q value) replaced by {@code ***}
 * @param dir the exact results folder, or null for {@code resultsRoot/PLAN/<timestamp>/}
 * @param timeout JMeter is killed after this; null: never
 * @param sharedLab a running lab the run uses and does not stop, or null
 * @param sharedEngines running engines the run uses and does not stop, or null
 * @param slo the objective of {@code --slo}, or null
 * @param monitor a running monitor the caller owns, or null (the run then watches its own JVMs)
 */
public record RunSpec(String planId, Path jmx, PlanFile plan, List<String> services, List<String> targets,
        List<String> jmeterArgs,
                      Map<String, String> properties, Map<String, String> maskedProperties, boolean noLab, int engines,
                      List<String> remote, String controllerAddress, double maxErrorPct, Path resultsRoot, Path dir,
                      List<String> labArgs, Duration labTimeout, Duration engineTimeout, Path rmiDir, Path workDir,
                      Duration timeout, boolean echo, boolean dashboard, boolean resultsFile, PrintStream out,
                      Consumer<Lab> onLabReady, Lab sharedLab, Engines sharedEngines, Objective slo,
                              HostMonitor monitor) {

    /** Property names whose values the summary header never shows. */
    static final Pattern SECRET_NAME = Pattern.compile("(?i).*(password|secret|token|key|credential|auth).*");
    /** Default of {@code --max-error-pct}: see docs/harness.md. */
    public static final double DEFAULT_MAX_ERROR_PCT = 1.0;

    /** A catalog plan. */
    public static Builder of(Layout layout, Catalog.Entry entry) {
        Builder o = of(layout, entry.id(), layout.plans().resolve(entry.id() + ".jmx"));
        o.services = entry.services();
        o.targets = entry.targets();
        return o;
    }

    /** A plan file outside the catalog (no lab unless {@link Builder#services} says so). */
    public static Builder of(Layout layout, String id, Path jmx) {
        Builder o = new Builder();
        o.planId = id;
        o.jmx = jmx.toAbsolutePath();
        o.resultsRoot = layout.root().resolve("results");
        o.rmiDir = layout.root().resolve("dist/target/rmi");
        return o;
    }

    /** Whether JMeter runs on engines of other hosts. */
    public boolean remoteRun() {
        return !remote.isEmpty() || (sharedEngines != null && sharedEngines.isRemote());
    }

    /** Whether the lab starts: the plan needs services, none is given, and no target property is set. */
    public boolean useLab(PrintStream log) {
        if (services.isEmpty() || noLab || sharedLab != null) {
            return false;
        }
        for (String t : targets) {
            if (properties.containsKey(t)) {
                log.println("trustload: " + t + " is set: running against that server, no lab");
                return false;
            }
        }
        return true;
    }

    /** The user's -J and -q properties in {@code args}; with {@code masked}, secret values replaced. */
    public static Map<String, String> userProperties(List<String> args, boolean masked) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-q") && i + 1 < args.size()) {
                // every property from a -q file is masked: that is where users put passwords
                load(Path.of(args.get(++i))).forEach((n, v) -> out.put(n, masked ? "***" : v));
            } else if (a.startsWith("-J") && a.indexOf('=') > 2) {
                String name = a.substring(2, a.indexOf('='));
                String value = a.substring(a.indexOf('=') + 1);
                out.put(name, masked && SECRET_NAME.matcher(name).matches() ? "***" : value);
            }
        }
        return out;
    }

    /** A properties file's entries, sorted by name; an IOException when Java cannot read it as one (a bad escape). */
    public static Map<String, String> load(Path file) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + " is not a properties file: " + e.getMessage(), e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(n -> out.put(n, p.getProperty(n)));
        return out;
    }

    /** A run specification being put together; {@link #build()} fixes it. */
    public static final class Builder {
        private String planId;
        private Path jmx;
        private List<String> services = List.of();
        private List<String> targets = List.of();
        private List<String> jmeterArgs = new ArrayList<>();
        private boolean noLab;
        private int engines;
        private List<String> remote = List.of();
        private String controllerAddress;
        private double maxErrorPct = DEFAULT_MAX_ERROR_PCT;
        private Path resultsRoot;
        private Path dir;
        private List<String> labArgs = List.of();
        private Duration labTimeout = Duration.ofSeconds(120);
        private Duration engineTimeout = Duration.ofSeconds(120);
        private Path rmiDir;
        private Path workDir = Path.of("").toAbsolutePath();
        private Duration timeout;
        private boolean echo = true;
        private boolean dashboard = true;
        private boolean resultsFile = true;
        private PrintStream out = System.out;
        private Consumer<Lab> onLabReady = lab -> { };
        private Lab sharedLab;
        private Engines sharedEngines;
        private Objective slo;
        private HostMonitor monitor;

        private Builder() {
        }

        /** The fixed specification (reads the {@code -q} files). */
        public RunSpec build() throws IOException {
            List<String> args = List.copyOf(jmeterArgs);
            return new RunSpec(planId, jmx, PlanFile.of(jmx), services, targets, args, userProperties(args, false),
                    userProperties(args, true), noLab, engines, remote, controllerAddress, maxErrorPct, resultsRoot,
                            dir, labArgs,
                    labTimeout, engineTimeout, rmiDir, workDir, timeout, echo, dashboard, resultsFile, out, onLabReady,
                            sharedLab,
                    sharedEngines, slo, monitor);
        }

        public Builder services(List<String> services) {
            this.services = List.copyOf(services);
            return this;
        }

        /** Adds {@code -Jname=value} (JMeter logs it: never a password) or {@code -q FILE} arguments, in order. */
        public Builder args(List<String> args) {
            jmeterArgs.addAll(args);
            return this;
        }

        /** Adds {@code -q file}: properties for the controller and, with engines, for them too. */
        public Builder properties(Path file) {
            jmeterArgs.addAll(List.of("-q", file.toAbsolutePath().toString()));
            return this;
        }

        public Builder property(String name, String value) {
            jmeterArgs.add("-J" + name + "=" + value);
            return this;
        }

        public Builder noLab(boolean noLab) {
            this.noLab = noLab;
            return this;
        }

        /** Starts N engines on this machine for the run. */
        public Builder engines(int engines) {
            this.engines = engines;
            return this;
        }

        /**
         * Runs on engines already running on other hosts ({@code HOST:PORT} each; {@code ./trustload engine} there).
         */
        public Builder remote(List<String> hosts) {
            this.remote = List.copyOf(hosts);
            return this;
        }

        /**
         * With {@link #remote}: the address the engines reach this controller at (null: the local address of the
         * connections to them).
         */
        public Builder controller(String address) {
            this.controllerAddress = address;
            return this;
        }

        public Builder maxErrorPct(double pct) {
            this.maxErrorPct = pct;
            return this;
        }

        /** Results go to {@code root/PLAN/<timestamp>/}. */
        public Builder resultsRoot(Path root) {
            this.resultsRoot = root;
            return this;
        }

        /** Results go exactly here (emptied first). */
        public Builder dir(Path dir) {
            this.dir = dir;
            return this;
        }

        public Builder labArgs(List<String> args) {
            this.labArgs = List.copyOf(args);
            return this;
        }

        public Builder labTimeout(Duration t) {
            this.labTimeout = t;
            return this;
        }

        public Builder engineTimeout(Duration t) {
            this.engineTimeout = t;
            return this;
        }

        public Builder rmiDir(Path dir) {
            this.rmiDir = dir;
            return this;
        }

        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        /** JMeter is killed after this (tests); none by default. */
        public Builder timeout(Duration t) {
            this.timeout = t;
            return this;
        }

        /** Whether JMeter's console and the summary are printed (the launcher) or only written (tests). */
        public Builder echo(boolean echo) {
            this.echo = echo;
            return this;
        }

        /** Whether JMeter writes its HTML dashboard ({@code report/}); {@code ./trustload size} phases skip it. */
        public Builder dashboard(boolean dashboard) {
            this.dashboard = dashboard;
            return this;
        }

        /**
         * Whether JMeter writes {@code results.jtl} (the kms bench counts without its cost); without it, no summary.
         */
        public Builder resultsFile(boolean write) {
            this.resultsFile = write;
            return this;
        }

        /** Runs against this running lab (its properties are passed on; the run does not stop it). */
        public Builder lab(Lab lab) {
            this.sharedLab = lab;
            return this;
        }

        /** Judges the run's steady window by these rules ({@code --slo}): exit 8 when one breaks. */
        public Builder slo(Objective slo) {
            this.slo = slo;
            return this;
        }

        /** Reads the load generator's CPU from this running monitor (its caller chose the JVMs it watches). */
        public Builder monitor(HostMonitor monitor) {
            this.monitor = monitor;
            return this;
        }

        /** Runs on these running engines (the run does not stop them). */
        public Builder engines(Engines engines) {
            this.sharedEngines = engines;
            return this;
        }

        /**
         * Where JMeter's console and the summary are echoed (the launcher's stdout; its own messages go to the log).
         */
        public Builder out(PrintStream out) {
            this.out = out;
            return this;
        }

        /** Called once the lab is ready (e.g. to read its properties before it stops and removes its files). */
        public Builder onLabReady(Consumer<Lab> hook) {
            this.onLabReady = hook;
            return this;
        }
    }
}
