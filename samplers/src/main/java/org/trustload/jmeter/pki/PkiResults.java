package org.trustload.jmeter.pki;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.FailFast;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.jmeter.common.SampleFailures;
import org.trustload.pki.Flow.Step;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.PkiException;

/** What the PKI samplers share: results, named steps as sub-results, the key, the input document. */
final class PkiResults {
    private static final String UTF_8 = StandardCharsets.UTF_8.name();
    private static final HexFormat HEX = HexFormat.of();

    private PkiResults() {
    }

    static void ok(SampleResult res, String summary, String body) {
        res.setSuccessful(true);
        res.setResponseCodeOK();
        res.setResponseMessage(summary);
        // bytes + encoding: setResponseData(String, String) looks the charset up by name every sample
        res.setResponseData(body.getBytes(StandardCharsets.UTF_8));
        res.setDataEncoding(UTF_8);
        res.setDataType(SampleResult.TEXT);
    }

    /**
     * Adds each step of a lib flow as a sub-result labelled {@code <parent> <step>}; a failed step is
     * a failed sub-result unless {@code expected} (a refusal the plan asked for).
     */
    static void addSteps(SampleResult parent, List<Step> steps, boolean expected) {
        // lib times its steps on the system clock, JMeter its results on its own (nano-based) one; the two
        // differ by a millisecond or so: keep each step inside its parent's span so reports nest it
        long from = parent.getStartTime();
        long to = parent.getEndTime() > 0 ? parent.getEndTime() : Long.MAX_VALUE;
        for (Step step : steps) {
            SampleResult sub = new SampleResult();
            sub.setSampleLabel(parent.getSampleLabel() + " " + step.name());
            long start = Math.min(Math.max(step.startMillis(), from), to);
            sub.setStampAndTime(start, Math.max(0, Math.min(step.elapsedMillis(), to - start)));
            if (step.ok()) {
                ok(sub, step.summary(), step.summary());
            } else if (expected) {
                String m = "refused as expected: " + step.failure().category();
                ok(sub, m, m + "\n" + step.failure().detail());
            } else {
                SampleFailures.fail(sub, step.failure().category(), step.failure().getMessage(),
                        step.failure().detail());
            }
            parent.addSubResult(sub, false);
        }
    }

    /**
     * The key this thread uses now. A pool no Key Store Config loaded is a configuration error of
     * {@code keyPool}, a pool that failed to load repeats its config's error; both stop the test.
     */
    static KeyMaterial key(String keyPool, PropertyParser p) throws ClientException {
        try {
            return KeyStoreConfig.currentKey(keyPool);
        } catch (ClientException e) {
            FailFast.stopTest();
            // the Key Store Config's own error (naming its property and file), or no such pool at all
            throw e.setting().isEmpty() ? p.error("keyPool", "", e.getMessage(), null) : e;
        }
    }

    /** Fixed bytes from a file or a variable; the file is read once per thread and sampler. */
    static final class Input {
        private String path;
        private byte[] bytes;

        /**
         * The bytes: the file (read on first use, again only when its name changes), else the variable
         * (base64 when {@code base64}, else UTF-8 text); null when neither is set.
         */
        byte[] read(PropertyParser p, String fileProperty, String file, String variableProperty, String variable,
                boolean base64) throws ClientException {
            String f = file == null ? "" : file.trim();
            if (!f.isEmpty()) {
                if (!f.equals(path)) {
                    File resolved = p.file(fileProperty, f, true);
                    try {
                        bytes = Files.readAllBytes(resolved.toPath());
                    } catch (IOException e) {
                        throw p.error(fileProperty, resolved.getPath(), "cannot read the file", e);
                    }
                    path = f;
                }
                return bytes;
            }
            String name = variable == null ? "" : variable.trim();
            if (name.isEmpty()) {
                return null;
            }
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            String v = vars == null ? null : vars.get(name);
            if (v == null) {
                throw p.error(variableProperty, "", "variable '" + name + "' is not set", null);
            }
            if (!base64) {
                return v.getBytes(StandardCharsets.UTF_8);
            }
            try {
                return Base64.getMimeDecoder().decode(v);
            } catch (IllegalArgumentException e) {
                throw p.error(variableProperty, "", "variable '" + name + "' is not base64", null);
            }
        }
    }

    /**
     * Where a sampler keeps what it made (a signature, a token): one file overwritten by each sample,
     * and/or a directory receiving every one as {@code <sampler>_<thread>_<n>.<ext>}. Written after the
     * sample's clock stopped. One per sampler clone (thread).
     */
    static final class Output {
        private long count;

        /**
         * Publishes a signature or time-stamp token: the thread's variables the Signature Assertion reads, {@code
         * variable} (base64, when set), then {@link #write}.
         *
         * @throws ClientException a configuration error naming the property when a file cannot be written
         */
        void publish(PropertyParser p, String format, byte[] bytes, byte[] content, String variable, String file,
                String directory, String element, String extension) throws ClientException {
            JMeterVariables vars = JMeterContextService.getContext().getVariables();
            if (vars != null) {
                vars.putObject(AbstractSignSampler.LAST_SIGNATURE, bytes);
                vars.putObject(AbstractSignSampler.LAST_FORMAT, format);
                vars.putObject(AbstractSignSampler.LAST_CONTENT, content);
                if (variable != null && !variable.isBlank()) {
                    vars.put(variable.trim(), Base64.getEncoder().encodeToString(bytes));
                }
            }
            write(p, file, directory, element, extension, bytes);
        }

        /**
         * Writes {@code bytes} to {@code file} and into {@code directory} (each empty: not written).
         *
         * @throws ClientException a configuration error naming the property when the file cannot be written
         */
        private void write(PropertyParser p, String file, String directory, String element, String extension,
                byte[] bytes) throws ClientException {
            String f = file == null ? "" : file.trim();
            if (!f.isEmpty()) {
                File out = PropertyParser.resolve(f);
                try {
                    Files.write(out.toPath(), bytes);
                } catch (IOException | java.nio.file.InvalidPathException e) {
                    // InvalidPathException: a NUL or an unmappable character in the name
                    throw p.error("outputFile", out.getPath(), "cannot be written", e);
                }
            }
            String d = directory == null ? "" : directory.trim();
            if (!d.isEmpty()) {
                File dir = PropertyParser.resolve(d);
                String thread = JMeterContextService.getContext().getThread() == null ? "thread"
                        : JMeterContextService.getContext().getThread().getThreadName();
                String name =
                        (element + "_" + thread).replaceAll("[^A-Za-z0-9._-]+", "-") + "_" + (++count) + extension;
                try {
                    Files.createDirectories(dir.toPath());
                    Files.write(dir.toPath().resolve(name), bytes);
                } catch (IOException | java.nio.file.InvalidPathException e) {
                    // InvalidPathException: a NUL or an unmappable character in the name
                    throw p.error("outputDirectory", dir.getPath(), "cannot be written", e);
                }
            }
        }
    }

    /**
     * Whether a failure of a thread that never reached the server can only repeat: the connection was
     * refused, the server's TLS certificate is not trusted (unknown hosts stop the test at its start), the API
     * wants a credential or refuses the one configured. Timeouts are not: under load they come and go.
     */
    static boolean neverReachable(ClientException e) {
        if (e == null) {
            return false;
        }
        String m = e.getMessage();
        // (a failed mTLS handshake is not one: the server may refuse that one user's certificate)
        if (PkiException.CREDENTIAL_MISSING.equals(e.category())
                || PkiException.CREDENTIAL_REFUSED.equals(e.category())) {
            return true; // every request of the thread would carry the same credential
        }
        return (PkiException.CONNECT_ERROR.equals(e.category()) || PkiException.TSA_ERROR.equals(e.category()))
                && (m.endsWith("connection refused") || m.endsWith("unreachable")
                        || m.endsWith("TLS handshake failed"));
    }

    /** Failures that are an answer of the server (an error, a refusal, garbage), not a connection that failed. */
    private static final Set<String> ANSWERS = Set.of(PkiException.SERVER_ERROR,
            PkiException.REQUEST_REFUSED, PkiException.BAD_RESPONSE, PkiException.TOKEN_EXPIRED,
            PkiException.REVOCATION_UNAVAILABLE, PkiException.LOGIN_REFUSED, PkiException.CERTIFICATE_EXPIRED,
            PkiException.CERTIFICATE_REVOKED, PkiException.UNTRUSTED_CERTIFICATE, PkiException.CREDENTIAL_MISSING,
            PkiException.CREDENTIAL_REFUSED, CertificateLoginSampler.EXPECTED_REFUSAL);
    /** The TSA failures where no answer came. */
    private static final Set<String> TSA_SILENT = Set.of("TSA timed out", "TSA unreachable",
            "TSA connection failed", "TSA request interrupted");

    /**
     * Whether the failure shows that the server answered (so it was reached: a refusal there later is an
     * outage): an error answer, a refusal, an answer that is not what the API publishes; not a connection that
     * failed, timed out or was closed before an answer.
     */
    static boolean answered(ClientException e) {
        if (e == null) {
            return false;
        }
        if (PkiException.TSA_ERROR.equals(e.category())) {
            return !TSA_SILENT.contains(e.getMessage());
        }
        return ANSWERS.contains(e.category());
    }

    /**
     * Lower-case hex of the first {@code max} bytes. (Not String.format per byte: that parsed its format with
     * a regex 32 times per timestamp sample, a fifth of the Timestamp Request thread's allocation in JFR.)
     */
    static String hex(byte[] b, int max) {
        return HEX.formatHex(b, 0, Math.min(b.length, max));
    }
}
