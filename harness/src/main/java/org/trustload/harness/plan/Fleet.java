package org.trustload.harness.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The arithmetic of a capacity plan: from each operation's measured service demand and the workload's target, the
 * servers' CPUs busy at the target, the CPUs and servers needed at the utilisation ceiling plus spares, and the
 * load-generator engines; each step kept as a line of text. The method and its limits: docs/capacity-planning.md.
 *
 * @param serverCpus the CPUs of one planned server
 * @param busyCpus server CPUs busy at the target (the utilisation law: rate x CPU per operation)
 * @param cpusAtCeiling those divided by the ceiling
 * @param serverShares servers at the ceiling, unrounded (each operation's rate over its rate per server)
 * @param servers servers the target needs (rounded up), {@code total} with the spares
 * @param clientCpus load-generator CPUs busy at the target
 * @param engineCpus CPUs of one engine
 * @param engines engines at the ceiling
 * @param perServerRate the rate one server takes at peak with the spares down (the target over {@code servers})
 * @param predictedUtilisation that server's predicted CPU share at that rate
 * @param predictedClientCpus load-generator CPUs busy at that rate
 */
public record Fleet(Workload workload, List<Line> lines, int serverCpus, double busyCpus, double cpusAtCeiling,
                    double serverShares, int servers, int total, double clientCpus, int engineCpus, int engines,
                    double perServerRate, double predictedUtilisation, double predictedClientCpus,
                    List<String> arithmetic, List<String> assumptions) {

    /**
     * One operation's part.
     *
     * @param rate its rate at the target, operations/s
     * @param ref the report the figures come from; {@code other} a second one at another CPU count, or null
     * @param efficiency the scaling efficiency between the two sizes (1: linear; NaN: one size, assumed linear)
     * @param demandMs the server's CPU ms per operation on a planned server
     * @param cpuRate operations/s one planned server's CPUs serve at 100%
     * @param objectiveRate operations/s one planned server serves at the objective (the measured capacity), NaN unknown
     * @param perServer operations/s one planned server takes at the ceiling
     * @param clientMs the load generator's CPU ms per operation
     */
    public record Line(Workload.Operation op, double rate, Measured ref, Measured other, double efficiency,
                       double demandMs, double cpuRate, double objectiveRate, double perServer, double clientMs) {
    }

    /**
     * The scaling efficiency between throughputs {@code x1} at {@code c1} CPUs and {@code x2} at {@code c2}: the share
     * of the added CPUs' linear gain that was gained, {@code (x2/x1 - 1) / (c2/c1 - 1)} (1: linear, 0: none).
     */
    public static double efficiency(double x1, int c1, double x2, int c2) {
        if (c1 == c2 || c1 <= 0 || c2 <= 0 || !(x1 > 0) || !(x2 > 0)) {
            return Double.NaN;
        }
        return (x2 / x1 - 1) / ((double) c2 / c1 - 1);
    }

    /** Throughput at {@code c} CPUs relative to {@code cRef}, with efficiency {@code e} (NaN: linear). */
    public static double scale(int c, int cRef, double e) {
        double k = (double) c / cRef;
        return 1 + (Double.isNaN(e) ? 1 : e) * (k - 1);
    }

    /** Plans {@code w} from {@code reports} (by operation name: one report, or two at different CPU counts). */
    public static Fleet of(Workload w, Map<String, List<Measured>> reports) {
        List<String> calc = new ArrayList<>();
        List<String> assume = new ArrayList<>();
        int size = w.serverCpus();
        if (size <= 0) {
            for (Workload.Operation op : w.operations()) {
                size = Math.max(size, ref(reports.get(op.name())).serverCpus());
            }
            size = Math.max(1, size);
        }
        double u = w.ceiling();
        String one = cpus(size);
        if (w.target() != null) {
            calc.add(String.format(Locale.ROOT, "target: %s = %s/s", w.target().text(), n(w.target().perSecond())));
        }
        List<Line> lines = new ArrayList<>();
        double busy = 0;
        double shares = 0;
        double client = 0;
        int engineCpus = w.engineCpus();
        for (Workload.Operation op : w.operations()) {
            List<Measured> ms = reports.get(op.name());
            Measured ref = ref(ms);
            Measured other = ms.size() > 1 ? ms.stream().filter(m -> m != ref).findFirst().orElse(null) : null;
            double rate = w.rateOf(op);
            String o = op.name();
            calc.add(op.rate() != null ? String.format(Locale.ROOT, "%s: its own rate %s = %s/s", o, op.rate().text(),
                    n(rate))
                    : String.format(Locale.ROOT, "%s: %s x %s/s = %s/s", o, pct(op.share()), n(w.target().perSecond()),
                    n(rate)));
            double e = Double.NaN;
            int cRef = Math.max(1, ref.serverCpus());
            if (other != null && other.serverCpus() != ref.serverCpus()) {
                double x1 = throughput(other);
                double x2 = throughput(ref);
                e = efficiency(x1, Math.max(1, other.serverCpus()), x2, cRef);
                calc.add(String.format(Locale.ROOT,
                        "%s: measured at %s (%s/s) and %s (%s/s): scaling efficiency (%s/%s - 1) /"
                                + " (%d/%d - 1) = %.2f", o, cpus(other.serverCpus()), n(x1), cpus(cRef), n(x2), n(x2),
                                n(x1), cRef,
                        other.serverCpus(), e));
                assume.add(String.format(Locale.ROOT,
                        "%s: throughput grows with CPUs at the efficiency measured between %s and"
                        + " %s (%.2f; 1 is linear), taken to hold beyond them", o, cpus(other.serverCpus()), cpus(cRef),
                        e));
            } else if (size != cRef) {
                assume.add(String.format(Locale.ROOT,
                        "%s: measured at %s only: a server of %s is a linear extrapolation (%s x"
                        + " the throughput), not a measurement", o, cpus(cRef), one, ratio((double) size / cRef)));
            }
            double s = scale(size, cRef, e);
            double dRef = ref.serverMsPerOp();
            double d = dRef * ((double) size / cRef) / s;
            calc.add(String.format(Locale.ROOT, "%s: server CPU per %s %s ms (low load %s, knee %s: the higher)%s", o,
                    singular(op.unit()), ms(dRef), ms(ref.serverLow()), ms(ref.serverKnee()), size == cRef ? ""
                            : String.format(Locale.ROOT, "; on %s: %s x %d/%d / %.2f = %s ms", one, ms(dRef), size,
                            cRef, s, ms(d))));
            double cpuRate = size * 1000.0 / d;
            double objRate = Double.isNaN(ref.capacity()) ? Double.NaN : ref.capacity() * s;
            double per = u * (Double.isNaN(objRate) ? cpuRate : Math.min(cpuRate, objRate));
            calc.add(String.format(Locale.ROOT,
                    "%s: one server at 100%% CPU: %d x 1000 / %s = %s/s; at the objective: %s;"
                            + " at the %s ceiling: %s x %s = %s/s", o, size, ms(d), n(cpuRate),
                    Double.isNaN(objRate) ? "not measured (no server verdict)" : n(objRate) + "/s" + (size == cRef ? ""
                            : " (scaled)"), pct(u), pct(u), n(Double.isNaN(objRate) ? cpuRate : Math.min(cpuRate,
                            objRate)), n(per)));
            if (!Double.isNaN(objRate) && objRate < 0.9 * cpuRate) {
                assume.add(String.format(Locale.ROOT,
                        "%s: its objective binds below its CPU (%s/s at the objective, %s/s at"
                        + " 100%% CPU; the report's limit: %s): planned at its measured capacity, which more CPUs"
                        + " may not"
                        + " raise", o, n(objRate), n(cpuRate), ref.limit()));
            }
            if (Double.isNaN(ref.capacity())) {
                assume.add(o + ": its size report gave no capacity at the objective (verdict " + ref.verdict()
                        + "): planned on CPU alone");
            }
            if (!ref.warmSettled()) {
                assume.add(o
                        + ": the server was still warming up when its report's first steps were judged: its CPU per"
                        + " operation may be overstated");
            }
            busy += rate * d / 1000;
            shares += rate / per;
            double c = ref.client();
            client += Double.isNaN(c) ? 0 : rate * c / 1000;
            if (engineCpus <= 0) {
                engineCpus = ref.engineCpus();
            }
            lines.add(new Line(op, rate, ref, other, e, d, cpuRate, objRate, per, c));
        }
        engineCpus = Math.max(1, engineCpus);
        double atCeiling = busy / u;
        int servers = Math.max(1, (int) Math.ceil(shares - 1e-9));
        int total = servers + w.spares();
        calc.add(String.format(Locale.ROOT, "server CPUs busy at the target: %s = %s CPUs", String.join(" + ",
                lines.stream().map(l -> n(l.rate()) + "/s x " + ms(l.demandMs()) + " ms").toList()), n(busy)));
        calc.add(String.format(Locale.ROOT, "at the %s ceiling: %s / %.2f = %s CPUs", pct(u), n(busy), u,
                n(atCeiling)));
        calc.add(String.format(Locale.ROOT,
                "servers of %s: ceil(%s) = ceil(%s) = %d; + %d spare%s = %d servers (%d CPUs)", one,
                String.join(" + ", lines.stream().map(l -> n(l.rate()) + "/" + n(l.perServer())).toList()), n(shares),
                        servers,
                w.spares(), w.spares() == 1 ? "" : "s", total, total * size));
        int engines = Math.max(1, (int) Math.ceil(client / (u * engineCpus) - 1e-9));
        calc.add(String.format(Locale.ROOT, "load-generator CPUs busy at the target: %s = %s CPUs; engines of %s at %s:"
                        + " ceil(%s / (%.2f x %d)) = %d", String.join(" + ", lines.stream().map(l -> n(l.rate())
                        + "/s x "
                        + ms(l.clientMs()) + " ms").toList()), n(client), cpus(engineCpus), pct(u), n(client), u,
                        engineCpus,
                engines));
        double perServer = w.totalRate() / servers;
        double util = 0;
        double perClient = 0;
        for (Line l : lines) {
            util += l.rate() / servers * l.demandMs() / 1000 / size;
            perClient += l.rate() / servers * (Double.isNaN(l.clientMs()) ? 0 : l.clientMs()) / 1000;
        }
        calc.add(String.format(Locale.ROOT,
                "one server at peak with the spare%s down: %s/s / %d = %s/s; its CPU %s%%; the load"
                        + " generator for it %s CPUs (what --verify checks)", w.spares() == 1 ? "" : "s",
                        n(w.totalRate()),
                servers, n(perServer), n(100 * util), n(perClient)));
        assume.add(0, String.format(Locale.ROOT,
                "N servers serve N times one server: a balancer spreads the mix evenly, and"
                + " nothing they share (a database, an HSM, a lock, a licence) limits them first; the %s ceiling"
                + " leaves the"
                + " headroom for peaks and queueing; %s", pct(u), w.spares() == 0 ? "no spare: a server down at peak"
                + " overloads the others" : w.spares() == 1 ? "1 spare covers one server down at peak"
                : w.spares() + " spares cover " + w.spares() + " servers down at peak"));
        return new Fleet(w, List.copyOf(lines), size, busy, atCeiling, shares, servers, total, client, engineCpus,
                engines,
                perServer, util, perClient, List.copyOf(calc), List.copyOf(assume));
    }

    /** The report a plan reads its figures from: of two, the larger server. */
    static Measured ref(List<Measured> ms) {
        Measured r = ms.get(0);
        for (Measured m : ms) {
            if (m.serverCpus() > r.serverCpus()) {
                r = m;
            }
        }
        return r;
    }

    /** What a report's server served: its capacity when its CPU limited it, else what its CPUs serve at 100%. */
    static double throughput(Measured m) {
        return m.cpuLimited() && !Double.isNaN(m.capacity()) ? m.capacity()
                : Math.max(1, m.serverCpus()) * 1000.0 / m.serverMsPerOp();
    }

    /** The plan as text: the table, the arithmetic, the assumptions. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("Capacity plan: ").append(workload.name()).append(" (").append(workload.file()).append(")\n");
        sb.append(String.format(Locale.ROOT, "Target %s/s; ceiling %s of each server's CPUs; %d spare%s%n%n",
                n(workload.totalRate()), pct(workload.ceiling()), workload.spares(), workload.spares() == 1 ? " (N+1)"
                        : ""));
        sb.append(String.format(Locale.ROOT, "%-12s %9s %12s %12s %14s %14s %12s%n", "operation", "rate/s",
                "server ms/op",
                "load ms/op", "server@100%", "at objective", "per server"));
        for (Line l : lines) {
            sb.append(String.format(Locale.ROOT, "%-12s %9s %12s %12s %14s %14s %12s%n", l.op().name(), n(l.rate()),
                    ms(l.demandMs()),
                    ms(l.clientMs()), n(l.cpuRate()) + "/s", Double.isNaN(l.objectiveRate()) ? "-"
                            : n(l.objectiveRate()) + "/s",
                    n(l.perServer()) + "/s"));
        }
        sb.append(String.format(Locale.ROOT,
                "%nServers: %d of %s (%d for the target + %d spare%s), %d CPUs; at the ceiling the"
                        + " target needs %s CPUs%nLoad generators: %d engine%s of %s%n%nArithmetic:%n", total,
                        cpus(serverCpus),
                servers, workload.spares(), workload.spares() == 1 ? "" : "s", total * serverCpus, n(cpusAtCeiling),
                        engines,
                engines == 1 ? "" : "s", cpus(engineCpus)));
        arithmetic.forEach(a -> sb.append("  ").append(a).append('\n'));
        sb.append("\nAssumptions:\n");
        assumptions.forEach(a -> sb.append("  - ").append(a).append('\n'));
        sb.append("\nMeasured:\n");
        for (Line l : lines) {
            sb.append("  ").append(l.op().name()).append(": ").append(where(l.ref()));
            if (l.other() != null) {
                sb.append("; ").append(where(l.other()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String where(Measured m) {
        return m.file() + " (" + m.plan() + ", " + cpus(m.serverCpus()) + ", " + m.slo() + ", measured "
                + m.measuredAt() + ", "
                + m.machine() + ")";
    }

    private static String ratio(double r) {
        return r == Math.rint(r) ? Long.toString((long) r) : String.format(Locale.ROOT, "%.2f", r);
    }

    static String cpus(int n) {
        return n == 1 ? "1 CPU" : n + " CPUs";
    }

    static String pct(double f) {
        double p = 100 * f;
        return (p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f", p) : String.format(Locale.ROOT, "%.1f", p))
                + "%";
    }

    static String ms(double v) {
        return Double.isNaN(v) ? "-" : org.trustload.harness.sizing.Verdict.ms(v);
    }

    static String n(double v) {
        return org.trustload.harness.sizing.Verdict.num(v);
    }

    static String singular(String unit) {
        return org.trustload.harness.sizing.Verdict.singular(unit);
    }
}
