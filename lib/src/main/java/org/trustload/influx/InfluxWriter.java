package org.trustload.influx;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.trustload.common.ClientException;

/**
 * Writes points to InfluxDB 1.x through its HTTP write API, as JMeter's own InfluxDB Backend Listener does:
 * {@code POST} of line protocol to the write URL the user gives ({@code http://host:8086/write?db=NAME},
 * the same value as the listener's {@code influxdbUrl}), with {@code Authorization: Token …} when a token is
 * set.
 *
 * <p>{@link #add} never blocks and never does I/O: points wait in a bounded buffer (a full buffer drops the
 * newest and counts them) and a daemon thread sends them every flush interval, in one request per up to
 * {@value #BATCH} points, with connect and request timeouts. A failed request loses its points and is
 * reported once through the reporter ({@code report}) with why; the next success is reported once too; so a
 * server that is down costs one log line, not one a second. The token and the URL's query (which may hold
 * {@code u=}/{@code p=} credentials) never appear in a report: {@link #where} names the server. Thread-safe.
 */
public final class InfluxWriter implements AutoCloseable {
    /** Points per request at most. */
    public static final int BATCH = 5000;

    private final URI url;
    private final String token;
    private final Duration timeout;
    private final TimeUnit precision;
    private final Consumer<String> report;
    private final BlockingQueue<String> buffer;
    private final HttpClient http;
    private final ScheduledExecutorService sender;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    /** Why the last request failed, null after a success: a failure is reported when this changes. */
    private String failing;
    private volatile boolean closed;

    private InfluxWriter(URI url, String token, Duration flushEvery, Duration timeout, int capacity,
            Consumer<String> report) {
        this.url = url;
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.timeout = timeout;
        this.precision = precision(url);
        this.report = report;
        this.buffer = new ArrayBlockingQueue<>(capacity);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
        this.sender = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "trustload-influx " + where(url));
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(100, flushEvery.toMillis());
        sender.scheduleWithFixedDelay(this::flush, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * A writer to {@code writeUrl} that sends every {@code flushEvery}; each request may take up to
     * {@code timeout} to connect and again to answer.
     *
     * @param token sent as {@code Authorization: Token <token>}; null or blank sends none
     * @param capacity points buffered at most between two sends
     * @param report gets the writer's few messages (a failure, a recovery, points lost at the end)
     * @throws ClientException {@code configError} about {@code influx.url} when it is not an http(s) URL with a host
     */
    public static InfluxWriter start(String writeUrl, String token, Duration flushEvery, Duration timeout, int capacity,
            Consumer<String> report) throws ClientException {
        return new InfluxWriter(parse(writeUrl), token, flushEvery, timeout, capacity, report);
    }

    /** The write URL checked: http or https, with a host. */
    static URI parse(String writeUrl) throws ClientException {
        URI u;
        try {
            u = URI.create(writeUrl == null ? "" : writeUrl.strip());
        } catch (IllegalArgumentException e) {
            throw ClientException.config("influx.url", "", "not a URL (give http://HOST:8086/write?db=NAME)", null);
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null) {
            throw ClientException.config("influx.url", "",
                    "not an http(s) URL with a host (give http://HOST:8086/write?db=NAME)",
                    null);
        }
        return u;
    }

    /** The server as messages name it: scheme, host, port and path, never the query or user info. */
    public static String where(URI u) {
        return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort())
                + (u.getRawPath() == null ? "" : u.getRawPath());
    }

    /** The timestamp unit of the URL's {@code precision} parameter (InfluxDB's default: nanoseconds). */
    static TimeUnit precision(URI u) {
        String q = u.getRawQuery();
        if (q != null) {
            for (String p : q.split("&")) {
                if (p.startsWith("precision=")) {
                    return switch (URLDecoder.decode(p.substring(10), StandardCharsets.UTF_8)) {
                        case "u" -> TimeUnit.MICROSECONDS;
                        case "ms" -> TimeUnit.MILLISECONDS;
                        case "s" -> TimeUnit.SECONDS;
                        case "m" -> TimeUnit.MINUTES;
                        case "h" -> TimeUnit.HOURS;
                        default -> TimeUnit.NANOSECONDS;
                    };
                }
            }
        }
        return TimeUnit.NANOSECONDS;
    }

    /** Queues a point for the next send; never blocks. A point without fields is ignored. */
    public void add(LinePoint point) {
        if (closed || !point.hasFields()) {
            return;
        }
        if (!buffer.offer(point.toLine(precision))) {
            dropped.incrementAndGet();
        }
    }

    /** Points written (answered 2xx). */
    public long written() {
        return written.get();
    }

    /** Points dropped because the buffer was full, or lost with a failed request. */
    public long notWritten() {
        return dropped.get() + lost.get();
    }

    /** Sends what is buffered, in batches; called by the sender thread (and once more by {@link #close}). */
    private synchronized void flush() {
        List<String> batch = new ArrayList<>(Math.min(BATCH, buffer.size()));
        while (buffer.drainTo(batch, BATCH) > 0) {
            send(batch);
            batch.clear();
        }
    }

    private void send(List<String> lines) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(timeout)
                .header("Content-Type", "text/plain; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", lines) + "\n", StandardCharsets.UTF_8));
        if (token != null) {
            b.header("Authorization", "Token " + token);
        }
        String why;
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 == 2) {
                written.addAndGet(lines.size());
                if (failing != null) {
                    report.accept("InfluxDB at " + where(url) + " takes points again (" + lost.get() + " lost so far)");
                    failing = null;
                }
                return;
            }
            String body = r.body() == null ? "" : r.body().strip().replace('\n', ' ');
            why = "HTTP " + r.statusCode()
                    + (body.isEmpty() ? "" : ": " + (body.length() > 200 ? body.substring(0, 200) + "…" : body));
        } catch (IOException e) {
            String connect = ClientException.connectFailure(e);
            why = connect != null ? connect : ClientException.readable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted";
        }
        lost.addAndGet(lines.size());
        if (!why.equals(failing)) {
            failing = why;
            report.accept("InfluxDB at " + where(url) + " did not take " + lines.size() + " points: " + why
                    + " (reported once; the run goes on)");
        }
    }

    /**
     * Sends what is left (at most one timeout per batch) and stops the sender; later points are ignored.
     * Reports points that never reached InfluxDB.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sender.shutdown();
        try {
            sender.awaitTermination(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
        if (notWritten() > 0) {
            report.accept("InfluxDB at " + where(url) + ": " + notWritten() + " of " + (notWritten() + written())
                    + " points not written (" + dropped.get() + " dropped from a full buffer)");
        }
    }
}
