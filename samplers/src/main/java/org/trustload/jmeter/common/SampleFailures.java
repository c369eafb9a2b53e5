package org.trustload.jmeter.common;

import java.nio.charset.StandardCharsets;
import org.apache.jmeter.samplers.SampleResult;
import org.trustload.common.ClientException;

/**
 * The one mapping of a failure to a {@link SampleResult}: response code = the stable category,
 * response message = the stable message, body = one readable cause. A configuration error is also
 * logged once ({@link FailFast}) and stops the sampling thread: the same request cannot succeed.
 */
public final class SampleFailures {
    /** Response code of a failure no client mapped (a bug): the exception's class is the message. */
    public static final String CLIENT_ERROR = "clientError";

    private SampleFailures() {
    }

    /** Maps {@code e}; {@code element} names the sampler or config in the log line of a configuration error. */
    public static void apply(SampleResult res, ClientException e, String element) {
        fail(res, e.category(), e.getMessage(), e.detail());
        if (e.isConfigError()) {
            FailFast.report(element, e);
            res.setStopThread(true);
        }
    }

    /** Maps an exception no client turned into a {@link ClientException}. */
    public static void unexpected(SampleResult res, RuntimeException e) {
        fail(res, CLIENT_ERROR, "unexpected " + e.getClass().getSimpleName(), ClientException.readable(e));
    }

    /** Ends the sample if still running and marks it failed; a null detail repeats the message. */
    public static void fail(SampleResult res, String code, String message, String detail) {
        if (res.getStartTime() == 0) {
            // nothing was timed (a configuration error found before the clock): zero length by
            // construction, not sampleStart() + sampleEnd(), which a descheduled thread makes 1 ms+
            res.setStampAndTime(System.currentTimeMillis(), 0);
        }
        if (res.getEndTime() == 0) {
            res.sampleEnd();
        }
        res.setSuccessful(false);
        res.setResponseCode(code);
        res.setResponseMessage(message);
        res.setResponseData(detail == null ? message : detail, StandardCharsets.UTF_8.name());
        res.setDataType(SampleResult.TEXT);
    }
}
