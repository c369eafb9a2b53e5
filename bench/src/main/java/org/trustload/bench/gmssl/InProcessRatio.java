package org.trustload.bench.gmssl;

import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.gmssl.TlcpMode;
import org.trustload.jmeter.gmssl.TlcpClientConfig;
import org.trustload.jmeter.gmssl.TlcpRequestSampler;

/**
 * The sampler's own cost, isolated: {@code TlcpRequestSampler.sample()} (mode handshake, on a TLCP
 * Client Config started as JMeter starts it) and the raw
 * {@code TlcpClient.connect()+close()} loop in the same warm JVM, alternated A/B/A/B so that load
 * changes of the shared machine hit both alike. No JMeter engine, listeners or results file: those
 * are in the JMeter rows.
 */
final class InProcessRatio {
    private InProcessRatio() {
    }

    static void run(StringBuilder report, Properties p, List<java.security.cert.X509Certificate> ca,
            TlcpCredentials client, List<TlcpSuite> suites, List<Integer> threads, int seconds, int rounds)
            throws Exception {
        report.append("\n### In-process: sampler.sample() vs raw loop, same JVM, alternated (handshakes/s)\n\n")
                .append("| suite | threads | raw loop | sampler | sampler / raw | load |\n|---|---|---|---|---|---|\n");
        for (TlcpSuite s : suites) {
            String port = p.getProperty("gmssl.tlcp.port"); // one gateway port for both protocols
            TlcpClient raw = TlcpEngines.forProtocol(s.protocol())
                    .newClient(new TlcpClientSettings().withProtocol(s.protocol())
                    .withSuites(List.of(s)).withTrustAnchors(ca).withCredentials(client));
            String host = p.getProperty("gmssl.host");
            for (int t : threads) {
                // the config publishes its client in the test's variables, which every bench thread shares
                JMeterVariables vars = new JMeterVariables();
                JMeterContextService.getContext().setVariables(vars);
                TlcpClientConfig config = config(p, s, port);
                config.testStarted();
                TlcpRequestSampler[] samplers = new TlcpRequestSampler[t];
                for (int i = 0; i < t; i++) {
                    samplers[i] = sampler();
                }
                loop(x -> rawOnce(raw, host, Integer.parseInt(port)), t, 2);
                loop(x -> sampleOnce(samplers[x], vars), t, 2);
                double rawSum = 0;
                double smpSum = 0;
                for (int r = 0; r < rounds; r++) {
                    rawSum += loop(x -> rawOnce(raw, host, Integer.parseInt(port)), t, seconds);
                    smpSum += loop(x -> sampleOnce(samplers[x], vars), t, seconds);
                }
                report.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.2f | %s |%n", s, t,
                        rawSum / rounds, smpSum / rounds, smpSum / rawSum, GmsslBench.load().split(" ")[0]));
                for (TlcpRequestSampler x : samplers) {
                    x.threadFinished();
                }
                config.testEnded();
            }
            raw.close();
        }
    }

    interface Op {
        long run(int thread) throws Exception;
    }

    /** Ops per second over {@code seconds}, {@code threads} threads. */
    static double loop(Op op, int threads, int seconds) throws InterruptedException {
        java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(threads);
        long t0 = System.nanoTime();
        long deadline = t0 + seconds * 1_000_000_000L;
        for (int i = 0; i < threads; i++) {
            int id = i;
            Thread th = new Thread(() -> {
                try {
                    while (System.nanoTime() < deadline) {
                        done.addAndGet(op.run(id));
                    }
                } catch (Exception e) {
                    System.err.println("loop error: " + e);
                } finally {
                    end.countDown();
                }
            });
            th.start();
        }
        end.await();
        return done.get() * 1e9 / (System.nanoTime() - t0);
    }

    private static long rawOnce(TlcpClient c, String host, int port) throws Exception {
        try (TlcpConnection conn = c.connect(host, port)) {
            return 1;
        }
    }

    private static long sampleOnce(TlcpRequestSampler s, JMeterVariables vars) {
        if (JMeterContextService.getContext().getVariables() != vars) {
            JMeterContextService.getContext().setVariables(vars);
        }
        SampleResult r = s.sample(null);
        if (!r.isSuccessful()) {
            throw new IllegalStateException(r.getResponseCode() + " " + r.getResponseMessage());
        }
        return 1;
    }

    private static TlcpClientConfig config(Properties p, TlcpSuite s, String port) {
        TlcpClientConfig c = new TlcpClientConfig();
        c.setName("bench");
        c.setConfigName("bench");
        c.setEngine("auto");
        c.setHost(p.getProperty("gmssl.host"));
        c.setPort(port);
        c.setProtocol("");
        c.setSuite(s.name());
        c.setCaFile(p.getProperty("gmssl.ca.file"));
        c.setClientKeyStore(p.getProperty("gmssl.client.keystore"));
        c.setClientKeyStorePassword(p.getProperty("gmssl.client.password"));
        c.setConnectTimeout("5000");
        c.setResponseTimeout("20000");
        return c;
    }

    private static TlcpRequestSampler sampler() {
        TlcpRequestSampler x = new TlcpRequestSampler();
        x.setName("bench");
        x.setConfigName("bench");
        x.setMode(TlcpMode.HANDSHAKE.id());
        x.setPath("/64b");
        return x;
    }
}
