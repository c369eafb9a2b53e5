package org.trustload.common;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A response body for {@code HttpClient.send} with a deadline and a size limit, for TrustLoad's java.net.http
 * clients (timestamps, the signature servers' APIs): JDK 17's request timeout stops at the headers, and
 * {@code sendAsync} costs a thread hand-off per answer. One watchdog thread per JVM fails a body past its
 * deadline ({@link HttpTimeoutException}, as a request timeout would); a body over the limit fails with
 * {@link TooLarge} as the cause. Measured causes: docs/bench.md, "Certificate login and timestamp".
 */
public final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
    /** How often the watchdog looks at the bodies in flight. */
    static final int TICK_MS = 50;
    /** How long the watchdog stays after the last body started before it ends. */
    static final int LINGER_MS = 2000;

    private static final Set<BoundedBody> IN_FLIGHT = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean WATCHING = new AtomicBoolean();
    /** When the last body started (System.nanoTime). */
    private static volatile long lastStart;

    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final long deadlineNanos;
    private final Duration timeout;
    private final int maxBytes;
    private volatile Flow.Subscription subscription;

    private BoundedBody(long deadlineNanos, Duration timeout, int maxBytes) {
        this.deadlineNanos = deadlineNanos;
        this.timeout = timeout;
        this.maxBytes = maxBytes;
    }

    /**
     * A body handler for one request: the body must be complete within {@code timeout} of this call (so
     * call it when the request is sent) and hold at most {@code maxBytes}.
     */
    public static HttpResponse.BodyHandler<byte[]> handler(Duration timeout, int maxBytes) {
        long deadline = System.nanoTime() + timeout.toNanos();
        return info -> {
            BoundedBody b = new BoundedBody(deadline, timeout, maxBytes);
            b.watch();
            return b;
        };
    }

    /** The answer was larger than the limit. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(int maxBytes) {
            super("answer larger than " + maxBytes + " bytes");
        }
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (result.isDone()) {
            s.cancel(); // expired before the body started
            return;
        }
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer b : items) {
            int n = b.remaining();
            if (buffer.size() + (long) n > maxBytes) {
                fail(new TooLarge(maxBytes));
                return;
            }
            if (b.hasArray()) {
                buffer.write(b.array(), b.arrayOffset() + b.position(), n);
                b.position(b.limit());
            } else {
                byte[] chunk = new byte[n];
                b.get(chunk);
                buffer.write(chunk, 0, n);
            }
        }
    }

    @Override
    public void onError(Throwable t) {
        IN_FLIGHT.remove(this);
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        IN_FLIGHT.remove(this);
        result.complete(buffer.toByteArray());
    }

    private void fail(IOException e) {
        IN_FLIGHT.remove(this);
        if (result.completeExceptionally(e)) {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel(); // closes the exchange: the connection is not reused
            }
        }
    }

    private void watch() {
        lastStart = System.nanoTime();
        IN_FLIGHT.add(this);
        if (WATCHING.compareAndSet(false, true)) {
            Thread t = new Thread(BoundedBody::watchdog, "trustload-http-body-deadline");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Fails the bodies past their deadline; ends when none is in flight and none started for a while. */
    private static void watchdog() {
        while (true) {
            try {
                Thread.sleep(TICK_MS);
            } catch (InterruptedException e) {
                WATCHING.set(false);
                return;
            }
            long now = System.nanoTime();
            for (BoundedBody b : IN_FLIGHT) {
                if (now - b.deadlineNanos > 0) {
                    b.fail(new HttpTimeoutException("answer not complete within " + b.timeout.toMillis() + " ms"));
                }
            }
            if (IN_FLIGHT.isEmpty() && now - lastStart > LINGER_MS * 1_000_000L) {
                WATCHING.set(false);
                // a body registered after the check but before the flag went down starts no watchdog: look again
                if (IN_FLIGHT.isEmpty() || !WATCHING.compareAndSet(false, true)) {
                    return;
                }
            }
        }
    }

    /** Bodies being read now (tests). */
    static int inFlight() {
        return IN_FLIGHT.size();
    }
}
