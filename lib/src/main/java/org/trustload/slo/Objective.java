package org.trustload.slo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service-level objective: rules joined by commas, every one of which must hold, e.g.
 * {@code p99<=500ms,errors<=1%,server.cpu<=90%}. One parser for {@code ./trustload size --slo} and the
 * SLO Stop listener. Rules:
 * <ul>
 *   <li>{@code pNN<=T} — the NN-th percentile of the response times (the dashboard's method), T in
 *       {@code ms} (default) or {@code s}; {@code avg<=T} the mean, {@code max<=T} the largest;</li>
 *   <li>{@code errors<=P%} — the share of failed samples;</li>
 *   <li>{@code outage<=T} — the longest outage: a stretch in which every sample of a label failed, until its
 *       first success after (T in {@code s} or {@code ms}; judged by {@code ./trustload run --slo} from the
 *       results file, not inside JMeter nor by {@code size});</li>
 *   <li>{@code server.cpu<=P%} — the watched server's CPU, as a share of its CPUs (only where the
 *       server is watched: {@code ./trustload size}).</li>
 * </ul>
 * {@code <} is accepted for {@code <=}.
 */
public final class Objective {

    /** What a rule measures. */
    public enum Kind { PERCENTILE, AVERAGE, MAX, ERRORS, SERVER_CPU, OUTAGE }

    /**
     * One rule.
     *
     * @param percentile the percentile for {@link Kind#PERCENTILE}, else NaN
     * @param limit ms for times, percent for errors and CPU
     */
    public record Rule(Kind kind, double percentile, double limit, String text) {

        /** The observed value's name and unit as the rule is written ({@code p99}, {@code errors}). */
        public String name() {
            return switch (kind) {
                case PERCENTILE -> "p" + trim(percentile);
                case AVERAGE -> "avg";
                case MAX -> "max";
                case ERRORS -> "errors";
                case SERVER_CPU -> "server.cpu";
                case OUTAGE -> "outage";
            };
        }

        public boolean isTime() {
            return kind == Kind.PERCENTILE || kind == Kind.AVERAGE || kind == Kind.MAX || kind == Kind.OUTAGE;
        }

        /** {@code "p99 812 ms > 500 ms"}; an outage in seconds: {@code "outage 6.33 s > 5 s"}. */
        public String breach(double observed) {
            if (kind == Kind.OUTAGE) {
                return String.format(Locale.ROOT, "outage %s s > %s s", fmt(observed / 1000), fmt(limit / 1000));
            }
            String unit = isTime() ? " ms" : "%";
            return String.format(Locale.ROOT, "%s %s%s > %s%s", name(), fmt(observed), unit, fmt(limit), unit);
        }
    }

    /** What one window of samples (or one load step) measured. */
    public interface Measured {
        long samples();

        long errors();

        /** The p-th percentile of the response times in ms (the dashboard's method). */
        double percentile(double p);

        double mean();

        double max();

        /** The server's CPU in percent of its CPUs; NaN when not watched. */
        double serverCpuPct();

        /** The longest outage in ms (0 when none); NaN where it is not measured (inside JMeter, sizing steps). */
        default double outageMs() {
            return Double.NaN;
        }
    }

    private static final Pattern RULE = Pattern.compile(
            "(p(\\d{1,2}(?:\\.\\d+)?)|avg|mean|max|errors|server\\.cpu|outage)"
                    + "\\s*(<=|<)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|%)?");

    private final List<Rule> rules;

    private Objective(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** Parses {@code text}; a readable {@link IllegalArgumentException} names the bad rule. */
    public static Objective parse(String text) {
        List<Rule> rules = new ArrayList<>();
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("an objective needs at least one rule, e.g. 'p99<=500ms,errors<=1%'");
        }
        for (String part : text.split(",")) {
            String r = part.strip().toLowerCase(Locale.ROOT);
            Matcher m = RULE.matcher(r);
            if (!m.matches()) {
                throw new IllegalArgumentException("cannot read the rule '" + part.strip()
                        + "' (rules: pNN<=Tms, avg<=Tms, max<=Tms, errors<=P%, server.cpu<=P%, outage<=Ts)");
            }
            double v = Double.parseDouble(m.group(4));
            String unit = m.group(5) == null ? "" : m.group(5);
            String what = m.group(1);
            Rule rule;
            if (what.equals("errors") || what.equals("server.cpu")) {
                if (!unit.isEmpty() && !unit.equals("%")) {
                    throw new IllegalArgumentException("'" + part.strip() + "': " + what + " is a percentage");
                }
                if (v > 100) {
                    throw new IllegalArgumentException("'" + part.strip() + "': more than 100%");
                }
                rule = new Rule(what.equals("errors") ? Kind.ERRORS : Kind.SERVER_CPU, Double.NaN, v, part.strip());
            } else {
                if (unit.equals("%")) {
                    throw new IllegalArgumentException("'" + part.strip() + "': a time takes ms or s");
                }
                double ms = unit.equals("s") ? v * 1000 : v;
                if (what.startsWith("p")) {
                    double p = Double.parseDouble(m.group(2));
                    if (p <= 0 || p >= 100) {
                        throw new IllegalArgumentException("'" + part.strip()
                                + "': a percentile lies between 0 and 100");
                    }
                    rule = new Rule(Kind.PERCENTILE, p, ms, part.strip());
                } else if (what.equals("outage")) {
                    rule = new Rule(Kind.OUTAGE, Double.NaN, ms, part.strip());
                } else {
                    rule = new Rule(what.equals("max") ? Kind.MAX : Kind.AVERAGE, Double.NaN, ms, part.strip());
                }
            }
            rules.add(rule);
        }
        return new Objective(rules);
    }

    public List<Rule> rules() {
        return rules;
    }

    /** The first error rule's limit in percent; NaN without one. */
    public double errorBudgetPct() {
        return rules.stream().filter(r -> r.kind() == Kind.ERRORS).mapToDouble(Rule::limit).min().orElse(Double.NaN);
    }

    /**
     * This objective without the rules a load generator cannot check as it runs ({@code server.cpu}, and
     * {@code outage}, judged from the whole results file); null when none is left.
     */
    public Objective withoutServerRules() {
        List<Rule> kept = rules.stream().filter(r -> r.kind() != Kind.SERVER_CPU && r.kind() != Kind.OUTAGE).toList();
        return kept.isEmpty() ? null : new Objective(kept);
    }

    /**
     * The rules {@code m} breaks, as {@link Rule#breach} texts; empty when every rule holds or nothing was measured.
     */
    public List<String> broken(Measured m) {
        List<String> out = new ArrayList<>();
        if (m.samples() == 0) {
            return out;
        }
        for (Rule r : rules) {
            double v = value(r, m);
            if (!Double.isNaN(v) && v > r.limit()) {
                out.add(r.breach(v));
            }
        }
        return out;
    }

    /** What {@code m} measured for {@code r}; NaN when unknown. */
    public static double value(Rule r, Measured m) {
        return switch (r.kind()) {
            case PERCENTILE -> m.percentile(r.percentile());
            case AVERAGE -> m.mean();
            case MAX -> m.max();
            case ERRORS -> m.samples() == 0 ? Double.NaN : 100.0 * m.errors() / m.samples();
            case SERVER_CPU -> m.serverCpuPct();
            case OUTAGE -> m.outageMs();
        };
    }


    @Override
    public String toString() {
        return String.join(",", rules.stream().map(Rule::text).toList());
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String fmt(double d) {
        if (Math.abs(d) >= 100 || d == Math.rint(d)) {
            return String.format(Locale.ROOT, "%.0f", d);
        }
        return String.format(Locale.ROOT, "%.2f", d);
    }
}
