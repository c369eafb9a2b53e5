package org.trustload.pki;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The outcome of a multi-step exchange with a server (a remote signature, a certificate login, a
 * timestamp through a product's API): the named {@link Step}s as far as they got, and either the
 * result (the signature, the token) or the failure. A flow never throws for what the server, the
 * network or the key did: the failed step carries it, and the element turns the steps into
 * sub-results. For the expected-refusal rules it also keeps the last HTTP status and answer seen.
 * Not thread-safe: one flow per exchange.
 */
public final class Flow {
    /** The answer text kept for refusal matching: enough for any error page. */
    public static final int MAX_BODY_CHARS = 4096;

    /** A step's work; may throw the failure that ends the flow. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws PkiException;
    }

    /** Says in one line what a successful step produced. */
    @FunctionalInterface
    public interface Summary<T> {
        String of(T value);
    }

    /**
     * One timed step of the flow: its name ({@code start}, {@code sign}, {@code complete}, {@code handshake},
     * …), when it started (system clock), how long it took, a one-line summary, and the failure that ended
     * it (null when it succeeded).
     */
    public record Step(String name, long startMillis, long elapsedNanos, String summary, PkiException failure) {
        public long elapsedMillis() {
            return elapsedNanos / 1_000_000L;
        }

        public boolean ok() {
            return failure == null;
        }
    }

    private final List<Step> steps = new ArrayList<>();
    private byte[] result;
    private String summary = "";
    private PkiException failure;
    private int status;
    private String body = "";
    private String subject = "";
    private String info = "";

    /**
     * Runs and times one step. On failure the step and the flow record it and the exception is
     * rethrown, so the caller's single {@code try} ends the flow there.
     */
    public <T> T step(String name, Work<T> work, Summary<? super T> summary) throws PkiException {
        long t0 = System.currentTimeMillis();
        long n0 = System.nanoTime();
        try {
            T value = work.run();
            steps.add(new Step(name, t0, System.nanoTime() - n0, summary.of(value), null));
            return value;
        } catch (PkiException e) {
            steps.add(new Step(name, t0, System.nanoTime() - n0, e.getMessage(), e));
            failure = e;
            throw e;
        }
    }

    /** Records a failure found outside any step (nothing was sent). */
    public Flow fail(PkiException e) {
        failure = e;
        return this;
    }

    /** Marks the flow done with its result (a signature, a token; null for a login) and a summary. */
    public Flow done(byte[] result, String summary) {
        this.result = result;
        this.summary = summary == null ? "" : summary;
        return this;
    }

    /** Records the HTTP status and answer of the last exchange (for refusal rules and messages). */
    public void answer(int status, String body) {
        this.status = status;
        this.body = body == null ? "" : body.length() > MAX_BODY_CHARS ? body.substring(0, MAX_BODY_CHARS) : body;
    }

    /** Who the server said logged in (its subject), for a login. */
    public void subject(String subject) {
        this.subject = subject == null ? "" : subject;
    }

    /** Extra facts worth showing (TLS protocol and suite of an mTLS login, the server's validation summary). */
    public void info(String info) {
        this.info = info == null ? "" : info;
    }

    public List<Step> steps() {
        return Collections.unmodifiableList(steps);
    }

    /** The signature or token; null on failure (and for a login). */
    public byte[] result() {
        return result;
    }

    public String summary() {
        return summary;
    }

    /** Null when the flow succeeded. */
    public PkiException failure() {
        return failure;
    }

    public boolean ok() {
        return failure == null;
    }

    /** The failure's category, or null when the flow succeeded. */
    public String code() {
        return failure == null ? null : failure.category();
    }

    /** The last HTTP status seen (0: none, e.g. the TLS handshake failed). */
    public int status() {
        return status;
    }

    /** The last answer's text (at most 4 KiB), or "". */
    public String body() {
        return body;
    }

    public String subject() {
        return subject;
    }

    public String info() {
        return info;
    }

    /** The result, or the failure thrown. */
    public byte[] orThrow() throws PkiException {
        if (failure != null) {
            throw failure;
        }
        return result;
    }
}
