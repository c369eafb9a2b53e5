package org.trustload.pki;

/**
 * One timed step of a multi-step exchange ({@link Flow}): its name ({@code start}, {@code sign},
 * {@code complete}, {@code handshake}, …), when it started (system clock), how long it took, a
 * one-line summary, and the failure that ended it (null when it succeeded).
 */
public record Step(String name, long startMillis, long elapsedNanos, String summary, PkiException failure) {
    public long elapsedMillis() {
        return elapsedNanos / 1_000_000L;
    }

    public boolean ok() {
        return failure == null;
    }
}
