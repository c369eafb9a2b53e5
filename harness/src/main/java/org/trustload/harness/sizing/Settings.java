package org.trustload.harness.sizing;

import java.util.List;
import org.trustload.slo.Objective;

/**
 * A search's settings, as {@code ./trustload size} reads them ({@code cli.Commands#sizeSettings}).
 *
 * @param start the first step's load, NaN for the default ({@link #startLoad()})
 * @param maxLoad the highest load tried, NaN for the default ({@link #maxLoadOrDefault()})
 * @param server {@code KIND:TARGET} of the watched server, or null (the lab's JVM)
 * @param serverCpus the watched server's CPUs, 0: as its source says
 * @param engines local engines, or the remote engines' count (each step's load is split across them)
 * @param controller with {@code remote}: the address the engines reach this host at, or null
 */
public record Settings(Objective slo, SizingPlan.Model model, double start, double factor, double maxLoad, long stepMs,
                       long warmupMs, long maxTimeMs, int plateau, double minGainPct, int refine, boolean confirm,
                       int maxStepsPerRun, String server, int serverCpus, String loadCpus, String unit, int engines,
                       List<String> remote, String controller, boolean noLab, List<String> jmeterArgs) {

    public Settings {
        remote = List.copyOf(remote);
        jmeterArgs = List.copyOf(jmeterArgs);
    }

    /** Whether the steps are arrival rates (Open Model Thread Group), not threads. */
    public boolean open() {
        return model == SizingPlan.Model.OPEN;
    }

    /** The first step's load: {@code --start}, else the engines' count (closed) or 10 arrivals/s. */
    public double startLoad() {
        if (!Double.isNaN(start)) {
            return start;
        }
        return open() ? 10 : Math.max(1, engines);
    }

    public double maxLoadOrDefault() {
        return !Double.isNaN(maxLoad) ? maxLoad : open() ? 100_000 : 2000;
    }

    /** The next load after {@code l}. */
    public double next(double l) {
        double n = l * factor;
        return open() ? round3(n) : Math.max(l + 1, Math.round(n));
    }

    /** The error rate at which a step is stopped at once: ten times the objective's budget, at least 10%. */
    public double guardErrorsPct() {
        double budget = slo.errorBudgetPct();
        return Math.min(100, Math.max(10, Double.isNaN(budget) ? 10 : 10 * budget));
    }

    /** {@code d} to three significant figures. */
    static double round3(double d) {
        if (d <= 0) {
            return d;
        }
        double f = Math.pow(10, Math.floor(Math.log10(d)) - 2);
        return Math.round(d / f) * f;
    }
}
