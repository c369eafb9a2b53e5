package org.trustload.bench;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllSSLSocketVerifier;
import org.newsclub.net.unix.AFSocketFactory;
import org.newsclub.net.unix.AFUNIXSocketAddress;

import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The same work as the sampler, straight on UnboundID with the options our LdapClient uses
 * (synchronous mode, TCP_NODELAY, no SO_LINGER/SO_KEEPALIVE/SO_REUSEADDR, no auto-reconnect, connect/response timeouts;
 * ldapi through junixsocket's FixedAddressSocketFactory with a dummy host), in this JVM, no JMeter.
 */
final class RawLoop {
    record Result(int ops, int errors, long nanos) {
        double opsPerSecond() {
            return ops * 1e9 / nanos;
        }
    }

    private final LdapCellPlan.Target target;
    private final SSLContext tls;

    RawLoop(LdapCellPlan.Target target) throws Exception {
        this.target = target;
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(Path.of(target.trustStore()))) {
            ks.load(in, target.trustStorePassword().toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        tls = SSLContext.getInstance(SSLUtil.getDefaultSSLProtocol());
        tls.init(null, tmf.getTrustManagers(), null);
    }

    private LDAPConnection connect(String scheme) throws Exception {
        LDAPConnectionOptions o = new LDAPConnectionOptions();
        o.setConnectTimeoutMillis(5000);
        o.setResponseTimeoutMillis(30000);
        o.setUseSynchronousMode(true);
        o.setUseTCPNoDelay(true);
        o.setUseLinger(false, 0);
        o.setUseKeepAlive(false);
        o.setUseReuseAddress(false);
        o.setAutoReconnect(false);
        o.setSSLSocketVerifier(TrustAllSSLSocketVerifier.getInstance());
        switch (scheme) {
            case "ldapi":
                SocketFactory unix = new AFSocketFactory.FixedAddressSocketFactory(
                        AFUNIXSocketAddress.of(new File(target.socket())));
                return new LDAPConnection(unix, o, "localhost", 389);
            case "ldaps":
                return new LDAPConnection(tls.getSocketFactory(), o, target.host(), target.ldapsPort());
            default:
                return new LDAPConnection(SocketFactory.getDefault(), o, target.host(), target.ldapPort());
        }
    }

    private boolean search(LDAPConnection c) throws LDAPException {
        SearchResult r = c.search(new SearchRequest(target.baseDn(), SearchScope.SUB, target.filter()));
        return r.getEntryCount() == 1;
    }

    /**
     * Runs {@code threads × opsPerThread} operations; the clock runs from the common start to the last thread's end.
     */
    Result run(String scheme, int threads, boolean perThread, int opsPerThread) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger ops = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                if (perThread) {
                    LDAPConnection c = null;
                    try {
                        c = connect(scheme);
                        c.bind(new SimpleBindRequest());
                        for (int i = 0; i < opsPerThread; i++) {
                            try {
                                if (!search(c)) {
                                    errors.incrementAndGet();
                                }
                            } catch (LDAPException e) {
                                errors.incrementAndGet();
                            }
                            ops.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    } finally {
                        if (c != null) {
                            c.close();
                        }
                    }
                } else {
                    for (int i = 0; i < opsPerThread; i++) {
                        try (LDAPConnection c = connect(scheme)) {
                            c.bind(new SimpleBindRequest());
                            if (!search(c)) {
                                errors.incrementAndGet();
                            }
                        } catch (Exception e) {
                            errors.incrementAndGet();
                        }
                        ops.incrementAndGet();
                    }
                }
            }, "raw-" + t);
            workers.add(w);
            w.start();
        }
        ready.await();
        long t0 = System.nanoTime();
        go.countDown();
        for (Thread w : workers) {
            w.join(600_000);
        }
        return new Result(ops.get(), errors.get(), System.nanoTime() - t0);
    }
}
