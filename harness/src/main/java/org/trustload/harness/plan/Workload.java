package org.trustload.harness.plan;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A workload file for {@code ./trustload plan}: the operations of a mix (each a plan with its properties, objective
 * and share of the mix or rate of its own), the target rate, the utilisation ceiling and the spares. A Java
 * properties file; its keys are documented in docs/capacity-planning.md#the-workload-file and the studies/ files
 * are examples.
 *
 * @param target the total rate the shares divide; null when every operation has a rate of its own
 * @param ceiling the share of each server's CPUs the plan may use at the target (0.7 by default)
 * @param spares servers added to the ones the target needs (1: N+1)
 * @param serverCpus CPUs of the servers to plan for; 0: the size measured
 * @param engineCpus CPUs of one load-generator engine; 0: as measured
 * @param sizeArgs options for every {@code size} the plan runs and for {@code --verify} (e.g. {@code --server ...})
 * @param verifyTime the judged length of the {@code --verify} run, and {@code verifyWarmup} its warm-up
 */
public record Workload(String name, Path file, Rate target, double ceiling, int spares, int serverCpus, int engineCpus,
                       List<String> sizeArgs, Duration verifyTime, Duration verifyWarmup, List<Operation> operations) {

    /**
     * One operation of the mix.
     *
     * @param plan a catalog id or a .jmx path
     * @param share its share of the target (0..1), NaN when it has a {@code rate}
     * @param rate its own rate, or null
     * @param properties the plan's JMeter properties ({@code -J})
     * @param sizeArgs more options for its {@code size}
     * @param reports size reports to use instead of running {@code size} (two at different CPU counts: scaling)
     */
    public record Operation(String name, String plan, String slo, String unit, double share, Rate rate,
                            Map<String, String> properties, List<String> sizeArgs, List<Path> reports) {
    }

    /** A rate: operations per second, and how it was written. */
    public record Rate(double perSecond, String text) {

        private static final Pattern RATE = Pattern.compile(
                "([0-9][0-9_,]*(?:\\.[0-9]+)?)\\s*/\\s*(s|sec|second|min|minute|h|hour)");

        /** {@code 100/s}, {@code 6000/min}, {@code 6,000/min}, {@code 360000/h}. */
        public static Rate parse(String text, String key) throws WorkloadException {
            Matcher m = RATE.matcher(text.strip().toLowerCase(Locale.ROOT));
            if (!m.matches()) {
                throw new WorkloadException(key + " takes a rate such as 100/s or 6000/min, not '" + text + "'");
            }
            double n = Double.parseDouble(m.group(1).replace(",", "").replace("_", ""));
            double per = switch (m.group(2)) {
                case "min", "minute" -> 60;
                case "h", "hour" -> 3600;
                default -> 1;
            };
            if (!(n > 0)) {
                throw new WorkloadException(key + " must be above 0, not '" + text + "'");
            }
            return new Rate(n / per, text.strip());
        }
    }

    /** A workload file that cannot be used, with what to fix. */
    public static final class WorkloadException extends Exception {
        private static final long serialVersionUID = 1L;

        public WorkloadException(String message) {
            super(message);
        }
    }

    private static final Set<String> TOP = Set.of("name", "target", "ceiling", "spares", "server.cpus", "engine.cpus",
            "size", "verify.time", "verify.warmup", "operations", "slo", "unit");
    private static final Set<String> OP = Set.of("plan", "share", "rate", "slo", "unit", "size", "report");

    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}");

    /** Reads {@code file}; {@code target} (from the command line) replaces the file's when not null. */
    public static Workload read(Path file, Rate target) throws IOException, WorkloadException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return parse(expand(p, System.getenv()), file, target);
    }

    /**
     * The values with {@code ${NAME}} replaced by the environment variable NAME: what differs from one machine to the
     * next (a server's process id, the -q file a fixture wrote) stays out of the file.
     */
    static Properties expand(Properties p, Map<String, String> env) throws WorkloadException {
        Properties out = new Properties();
        for (String k : p.stringPropertyNames()) {
            Matcher m = VAR.matcher(p.getProperty(k));
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                String v = env.get(m.group(1));
                if (v == null) {
                    throw new WorkloadException(k + " uses ${" + m.group(1) + "}: set the environment variable "
                            + m.group(1));
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(v));
            }
            m.appendTail(sb);
            out.setProperty(k, sb.toString());
        }
        return out;
    }

    static Workload parse(Properties p, Path file, Rate cliTarget) throws WorkloadException {
        Path base = file.toAbsolutePath().getParent();
        List<String> names = list(p.getProperty("operations", ""));
        if (names.isEmpty()) {
            throw new WorkloadException("operations lists the mix's operations by name, e.g. operations = cades, pades,"
                    + " login");
        }
        Set<String> unknown = new TreeSet<>();
        for (String k : p.stringPropertyNames()) {
            if (k.startsWith("op.")) {
                String rest = k.substring(3);
                int dot = rest.indexOf('.');
                String op = dot < 0 ? rest : rest.substring(0, dot);
                String key = dot < 0 ? "" : rest.substring(dot + 1);
                if (!names.contains(op)) {
                    unknown.add(k + " (no operation '" + op + "' in operations)");
                } else if (!OP.contains(key) && !key.startsWith("J.")) {
                    unknown.add(k);
                }
            } else if (!TOP.contains(k)) {
                unknown.add(k);
            }
        }
        if (!unknown.isEmpty()) {
            throw new WorkloadException("unknown keys " + String.join(", ", unknown)
                    + " (docs/capacity-planning.md#the-workload-file)");
        }
        Rate target = cliTarget != null ? cliTarget
                : p.getProperty("target") == null ? null : Rate.parse(p.getProperty("target"), "target");
        double ceiling = p.getProperty("ceiling") == null ? 0.70 : fraction(p.getProperty("ceiling"), "ceiling");
        if (ceiling > 1) {
            throw new WorkloadException("ceiling is a share of the servers' CPUs up to 100%, not "
                    + p.getProperty("ceiling"));
        }
        int spares = integer(p.getProperty("spares", "1"), "spares", 0);
        int serverCpus = integer(p.getProperty("server.cpus", "0"), "server.cpus", 0);
        int engineCpus = integer(p.getProperty("engine.cpus", "0"), "engine.cpus", 0);
        List<Operation> ops = new ArrayList<>();
        double shares = 0;
        boolean anyShare = false;
        for (String n : names) {
            String k = "op." + n + ".";
            String plan = p.getProperty(k + "plan");
            if (plan == null || plan.isBlank()) {
                throw new WorkloadException(k
                        + "plan names the operation's plan (a catalog id such as pki/cades, or a .jmx)");
            }
            String slo = p.getProperty(k + "slo", p.getProperty("slo"));
            if (slo == null || slo.isBlank()) {
                throw new WorkloadException(k
                        + "slo (or slo for every operation) is the objective, e.g. p95<=2s,errors<=1%");
            }
            String shareText = p.getProperty(k + "share");
            String rateText = p.getProperty(k + "rate");
            if ((shareText == null) == (rateText == null)) {
                throw new WorkloadException("operation " + n + " needs either " + k + "share (of the target) or " + k
                        + "rate (its own), not " + (shareText == null ? "neither" : "both"));
            }
            double share = Double.NaN;
            Rate rate = null;
            if (shareText != null) {
                share = fraction(shareText, k + "share");
                shares += share;
                anyShare = true;
            } else {
                rate = Rate.parse(rateText, k + "rate");
            }
            Map<String, String> props = new LinkedHashMap<>();
            p.stringPropertyNames().stream().filter(x -> x.startsWith(k + "J.")).sorted()
                    .forEach(x -> props.put(x.substring((k + "J.").length()), p.getProperty(x)));
            List<Path> reports = new ArrayList<>();
            for (String r : list(p.getProperty(k + "report", ""))) {
                reports.add(base.resolve(r).normalize());
            }
            if (reports.size() > 2) {
                throw new WorkloadException(k
                        + "report takes one size report, or two of the same server at different CPU counts");
            }
            ops.add(new Operation(n, plan.strip(), slo.strip(), p.getProperty(k + "unit", p.getProperty("unit",
                    "requests")).strip(),
                    share, rate, props, words(p.getProperty(k + "size", "")), reports));
        }
        if (anyShare && target == null) {
            throw new WorkloadException("operations with a share need a target rate: target = 6000/min in the file, or"
                    + " --target");
        }
        if (anyShare && Math.abs(shares - 1) > 0.005) {
            throw new WorkloadException(String.format(Locale.ROOT, "the shares add up to %.1f%%, not 100%%",
                    100 * shares));
        }
        Duration vt = duration(p.getProperty("verify.time", "2m"), "verify.time");
        Duration vw = duration(p.getProperty("verify.warmup", "30s"), "verify.warmup");
        if (vw.compareTo(vt) >= 0) {
            throw new WorkloadException("verify.warmup must be shorter than verify.time");
        }
        String name = p.getProperty("name", file.getFileName().toString().replaceFirst("\\.properties$", ""));
        return new Workload(name.strip(), file, target, ceiling, spares, serverCpus, engineCpus,
                words(p.getProperty("size", "")),
                vt, vw, List.copyOf(ops));
    }

    /** The rate of {@code op} at this workload's target. */
    public double rateOf(Operation op) {
        return op.rate() != null ? op.rate().perSecond() : op.share() * target.perSecond();
    }

    /** The total rate of the mix, operations/s. */
    public double totalRate() {
        return operations.stream().mapToDouble(this::rateOf).sum();
    }

    static List<String> list(String s) {
        List<String> out = new ArrayList<>();
        for (String x : s.split(",")) {
            if (!x.isBlank()) {
                out.add(x.strip());
            }
        }
        return out;
    }

    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        for (String x : s.strip().split("\\s+")) {
            if (!x.isEmpty()) {
                out.add(x);
            }
        }
        return out;
    }

    /** {@code 70%} or {@code 0.7}. */
    static double fraction(String v, String key) throws WorkloadException {
        String t = v.strip();
        try {
            double d = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).strip()) / 100
                    : Double.parseDouble(t);
            if (d > 0 && d <= 1) {
                return d;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new WorkloadException(key + " takes a share such as 60% or 0.6 (above 0, at most 100%), not '" + v + "'");
    }

    private static int integer(String v, String key, int min) throws WorkloadException {
        try {
            int i = Integer.parseInt(v.strip());
            if (i >= min) {
                return i;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new WorkloadException(key + " takes a whole number from " + min + ", not '" + v + "'");
    }

    private static Duration duration(String v, String key) throws WorkloadException {
        try {
            return Duration.ofMillis(org.trustload.harness.Size.duration(v, key));
        } catch (org.trustload.harness.HarnessException e) {
            throw new WorkloadException(e.getMessage());
        }
    }
}
