package org.trustload.harness;

/**
 * The exit status of {@code ./trustload run} and {@code size} (docs/harness.md#exit-status), the one list users
 * gate CI on. When several apply to a run, the first in this order wins: could not execute (2), configuration
 * error (3), SLO Stop stopped the test (8), a thread group without samples (5), errors above the budget (4),
 * {@code --slo} broken (8), the report not generated (9).
 */
public enum ExitStatus {
    /** The run executed and its failed top-level samples stayed within {@code --max-error-pct}. */
    OK(0, "executed within its error budget"),
    /** Bad command line (unknown command, plan or option). */
    USAGE(1, "usage error"),
    /** Build failed, the lab or the engines did not start (or the lab died), JMeter failed or wrote no results. */
    NOT_EXECUTED(2, "could not execute"),
    /** A sample with response code {@code configError}, or a "TrustLoad configuration error" in jmeter.log. */
    CONFIG_ERROR(3, "stopped by a configuration error"),
    /** Failed top-level samples above {@code --max-error-pct}. */
    TOO_MANY_ERRORS(4, "errors above --max-error-pct"),
    /** An enabled thread group produced no sample (e.g. a setUp failed and the main phase never ran). */
    THREAD_GROUP_WITHOUT_SAMPLES(5, "a thread group produced no samples"),
    /**
     * {@code size}: the load generator limited the search; no capacity is reported (the verdict says how many engines).
     */
    CLIENT_BOUND(6, "size: client-bound, no verdict (the load generator was the limit)"),
    /** {@code size}: no capacity: the objective broke at the lowest load, or no limit was reached within the bounds. */
    NO_VERDICT(7, "size: no capacity found (objective broken at the start load, no limit within --max-time/--max-load,"
            + " or the machine busy with other work)"),
    /** {@code run --slo RULES} broke over the steady window, or an SLO Stop listener said its objective broke. */
    SLO_BROKEN(8, "service-level objective broken (--slo, or an SLO Stop listener)"),
    /** The run executed but JMeter's HTML report ({@code report/index.html}) was not generated. */
    REPORT_FAILED(9, "the HTML report was not generated");

    private final int code;
    private final String meaning;

    ExitStatus(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }

    /** The table for {@code ./trustload help}. */
    public static String table() {
        StringBuilder sb = new StringBuilder();
        for (ExitStatus s : values()) {
            sb.append(String.format("  %d  %s%n", s.code, s.meaning));
        }
        return sb.toString();
    }
}
