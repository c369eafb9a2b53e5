package org.trustload.jmeter.common;

import java.nio.charset.StandardCharsets;
import org.apache.jmeter.samplers.SampleResult;

/** Turns a failure into a failed {@link SampleResult}: stable code, short message, detail in the body. */
public final class SampleFailures {
    private SampleFailures() {
    }

    /** Ends the sample if still running and marks it failed; a null detail repeats the message. */
    public static void fail(SampleResult res, String code, String message, String detail) {
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
