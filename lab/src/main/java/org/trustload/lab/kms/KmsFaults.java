package org.trustload.lab.kms;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.trustload.lab.LabHttp;

/**
 * Throttling and delay injection for a KMS emulator: {@code KMS.LimitExceeded} and {@code KMS.Timeout} on
 * purpose, and a server of known capacity for {@code ./trustload size}. Set by system properties at start,
 * {@code POST /admin/faults} at run time ({@link #handleAdmin}) or the request headers {@value #DELAY_HEADER}
 * and {@value #THROTTLE_HEADER}; the strongest wins. Thread-safe. docs/lab.md, "Throttling and delay injection".
 */
public final class KmsFaults {
    /** Request header: delay this request by the given milliseconds. */
    public static final String DELAY_HEADER = "X-Trustload-Delay-Ms";
    /** Request header: answer this request as throttled. */
    public static final String THROTTLE_HEADER = "X-Trustload-Throttle";
    /** Path of the run-time switch. */
    public static final String ADMIN_PATH = "/admin/faults";
    /** Longest delay accepted, ms (a test must stay bounded). */
    static final long MAX_DELAY_MS = 120_000;
    /** Longest wait for a turn under the rate limit, ms; beyond it a request is refused as throttled. */
    static final long MAX_QUEUE_MS = 30_000;

    private volatile int tpsLimit;
    private volatile double rateLimit;
    private long nextTurnNanos;
    private volatile long delayMs;
    private long windowSecond = -1;
    private int windowCount;

    /** Reads the system properties. */
    public KmsFaults() {
        tpsLimit = Math.max(0, Integer.getInteger("trustload.lab.kms.tps-limit", 0));
        delayMs = clampDelay(Long.getLong("trustload.lab.kms.delay-ms", 0L));
        rateLimit(Double.parseDouble(System.getProperty("trustload.lab.kms.rate-limit", "0")));
    }

    public double rateLimit() {
        return rateLimit;
    }

    /** Sets the requests served per second (each waits for its turn); 0 = unlimited. */
    public void rateLimit(double perSecond) {
        rateLimit = perSecond > 0 && Double.isFinite(perSecond) ? perSecond : 0;
    }

    public int tpsLimit() {
        return tpsLimit;
    }

    public long delayMs() {
        return delayMs;
    }

    /** Sets the limit of admitted requests per second; 0 = unlimited. */
    public void tpsLimit(int limit) {
        tpsLimit = Math.max(0, limit);
    }

    /** Sets the delay added to every response. */
    public void delayMs(long ms) {
        delayMs = clampDelay(ms);
    }

    /**
     * Whether a request arriving now may be served: false when the request asks to be throttled, when
     * this second already admitted {@link #tpsLimit()} requests, or when its turn under the
     * {@link #rateLimit()} is more than {@value #MAX_QUEUE_MS} ms away. Under a rate limit it returns
     * at its turn.
     */
    public boolean admit(HttpExchange ex) {
        if ("true".equalsIgnoreCase(ex.getRequestHeaders().getFirst(THROTTLE_HEADER))) {
            return false;
        }
        if (!awaitTurn()) {
            return false;
        }
        int limit = tpsLimit;
        if (limit <= 0) {
            return true;
        }
        long second = System.nanoTime() / 1_000_000_000L;
        synchronized (this) {
            if (second != windowSecond) {
                windowSecond = second;
                windowCount = 0;
            }
            return ++windowCount <= limit;
        }
    }

    /** Waits for this request's turn under the rate limit: turns are 1/R s apart, in arrival order. */
    private boolean awaitTurn() {
        double rate = rateLimit;
        if (rate <= 0) {
            return true;
        }
        long now = System.nanoTime();
        long turn;
        synchronized (this) {
            turn = Math.max(now, nextTurnNanos);
            if (turn - now > MAX_QUEUE_MS * 1_000_000L) {
                return false;
            }
            nextTurnNanos = turn + (long) (1e9 / rate);
        }
        for (long wait = turn - System.nanoTime(); wait > 0; wait = turn - System.nanoTime()) {
            java.util.concurrent.locks.LockSupport.parkNanos(wait);
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return true;
    }

    /** Sleeps for the larger of the configured delay and the request's {@value #DELAY_HEADER}. */
    public void delay(HttpExchange ex) {
        long ms = delayMs;
        String header = ex.getRequestHeaders().getFirst(DELAY_HEADER);
        if (header != null) {
            try {
                ms = Math.max(ms, clampDelay(Long.parseLong(header.trim())));
            } catch (NumberFormatException ignored) {
                // a malformed test header is no reason to fail the request
            }
        }
        if (ms > 0) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Serves {@value #ADMIN_PATH}: applies {@code tps_limit} and {@code delay_ms} from the query, answers the current
     * values.
     */
    public void handleAdmin(HttpExchange ex) throws IOException {
        long cpu0 = LabHttp.threadCpu();
        int status = 200;
        try {
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            if (q.containsKey("tps_limit")) {
                tpsLimit(Integer.parseInt(q.get("tps_limit")));
            }
            if (q.containsKey("rate_limit")) {
                rateLimit(Double.parseDouble(q.get("rate_limit")));
            }
            if (q.containsKey("delay_ms")) {
                delayMs(Long.parseLong(q.get("delay_ms")));
            }
        } catch (NumberFormatException e) {
            status = 400;
        }
        byte[] body = String.format(Locale.ROOT, "{\"tps_limit\":%d,\"rate_limit\":%s,\"delay_ms\":%d}", tpsLimit,
                        rateLimit == Math.rint(rateLimit) ? Long.toString((long) rateLimit)
                        : Double.toString(rateLimit), delayMs)
                .getBytes(StandardCharsets.UTF_8);
        LabHttp.send(ex, cpu0, status, "application/json", body);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null) {
            return q;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                q.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8).trim());
            }
        }
        return q;
    }

    private static long clampDelay(long ms) {
        return Math.max(0, Math.min(MAX_DELAY_MS, ms));
    }
}
