package org.trustload.lab.pki;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.trustload.lab.LabHttp;

/**
 * CRLs fetched over HTTP from the certificates' distribution points, as a real signature server does,
 * kept until their {@code nextUpdate}. Concurrent requests for the same URL share one download. The
 * download runs on its own daemon thread, never on the HTTP server's pool.
 */
final class CrlCache implements AutoCloseable {
    /** How long a CRL without a usable nextUpdate (absent or already past) is kept. */
    static final Duration STALE_CRL_TTL = Duration.ofMinutes(5);
    private static final int TIMEOUT_MS = 10_000;

    private record Entry(X509CRL crl, long expiresAtMillis) {
    }

    private final Map<String, CompletableFuture<Entry>> cache = new ConcurrentHashMap<>();
    private final ExecutorService fetcher = Executors.newCachedThreadPool(LabHttp.daemon("pki-lab-crl-fetch"));
    private final AtomicLong downloads = new AtomicLong();

    /**
     * Returns the CRL at {@code url}, verified with {@code issuer}'s key.
     *
     * @throws ApiException 503 {@code revocationUnavailable} when it cannot be downloaded or verified
     */
    X509CRL get(String url, X509Certificate issuer) throws ApiException {
        long now = System.currentTimeMillis();
        CompletableFuture<Entry> f = cache.compute(url, (k, old) -> {
            if (old != null && (!old.isDone() || usable(old, now))) {
                return old;
            }
            return CompletableFuture.supplyAsync(() -> download(url, issuer), fetcher);
        });
        try {
            return f.get(TIMEOUT_MS, TimeUnit.MILLISECONDS).crl();
        } catch (ExecutionException e) {
            cache.remove(url, f);
            Throwable c = e.getCause();
            throw new ApiException(503, ApiException.REVOCATION_UNAVAILABLE,
                    "cannot get the CRL " + url + ": " + (c == null ? e : c.getMessage()), c);
        } catch (TimeoutException e) {
            throw new ApiException(503, ApiException.REVOCATION_UNAVAILABLE,
                    "the CRL " + url + " did not arrive within " + TIMEOUT_MS + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, ApiException.REVOCATION_UNAVAILABLE, "interrupted while fetching " + url);
        }
    }

    private static boolean usable(CompletableFuture<Entry> f, long now) {
        if (f.isCompletedExceptionally()) {
            return false;
        }
        return now < f.join().expiresAtMillis();
    }

    private Entry download(String url, X509Certificate issuer) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(TIMEOUT_MS);
            c.setReadTimeout(TIMEOUT_MS);
            int status = c.getResponseCode();
            if (status != 200) {
                throw new IOException("HTTP " + status);
            }
            X509CRL crl;
            try (InputStream in = c.getInputStream()) {
                crl = (X509CRL) CertificateFactory.getInstance("X.509").generateCRL(in);
            }
            if (!crl.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())) {
                throw new GeneralSecurityException("the CRL is issued by " + crl.getIssuerX500Principal()
                        + ", not by " + issuer.getSubjectX500Principal());
            }
            crl.verify(issuer.getPublicKey());
            downloads.incrementAndGet();
            long now = System.currentTimeMillis();
            Date next = crl.getNextUpdate();
            long expires = next != null && next.getTime() > now ? next.getTime() : now + STALE_CRL_TTL.toMillis();
            return new Entry(crl, expires);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new java.util.concurrent.CompletionException(e.getMessage() == null ? e.toString()
                    : e.getMessage(), e);
        }
    }

    /** Forgets every cached CRL (and pending download): the next check downloads again. */
    void clear() {
        cache.clear();
    }

    /** Number of successful downloads since start (for tests and the health answer). */
    long downloads() {
        return downloads.get();
    }

    @Override
    public void close() {
        fetcher.shutdownNow();
    }
}
