package org.trustload.bench.gmssl;

import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.jmeter.samplers.SampleResult;
import org.trustload.gmssl.TlcpClient;
import org.trustload.gmssl.TlcpClientSettings;
import org.trustload.gmssl.TlcpConnection;
import org.trustload.gmssl.TlcpCredentials;
import org.trustload.gmssl.TlcpEngines;
import org.trustload.gmssl.TlcpProtocol;
import org.trustload.gmssl.TlcpSuite;
import org.trustload.jmeter.gmssl.TlcpRequestSampler;

/**
 * The sampler's own cost, isolated: {@code TlcpRequestSampler.sample()} (mode handshake) and the raw
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
            String port = p.getProperty(s.protocol() == TlcpProtocol.TLCP ? "gmssl.tlcp.port" : "gmssl.tls13.port");
            TlcpClient raw = TlcpEngines.get("bgm").newClient(new TlcpClientSettings().withProtocol(s.protocol())
                    .withSuites(List.of(s)).withTrustAnchors(ca).withCredentials(client));
            String host = p.getProperty("gmssl.host");
            for (int t : threads) {
                TlcpRequestSampler[] samplers = new TlcpRequestSampler[t];
                for (int i = 0; i < t; i++) {
                    samplers[i] = sampler(p, s, port);
                }
                GmsslBench.loop(x -> rawOnce(raw, host, Integer.parseInt(port)), t, 2);
                GmsslBench.loop(x -> sampleOnce(samplers[x]), t, 2);
                double rawSum = 0;
                double smpSum = 0;
                for (int r = 0; r < rounds; r++) {
                    rawSum += GmsslBench.loop(x -> rawOnce(raw, host, Integer.parseInt(port)), t, seconds);
                    smpSum += GmsslBench.loop(x -> sampleOnce(samplers[x]), t, seconds);
                }
                report.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.2f | %s |%n", s, t,
                        rawSum / rounds, smpSum / rounds, smpSum / rawSum, GmsslBench.load()));
                samplers[0].testEnded();
            }
        }
    }

    private static long rawOnce(TlcpClient c, String host, int port) throws Exception {
        try (TlcpConnection conn = c.connect(host, port)) {
            return 1;
        }
    }

    private static long sampleOnce(TlcpRequestSampler s) {
        SampleResult r = s.sample(null);
        if (!r.isSuccessful()) {
            throw new IllegalStateException(r.getResponseCode() + " " + r.getResponseMessage());
        }
        return 1;
    }

    private static TlcpRequestSampler sampler(Properties p, TlcpSuite s, String port) {
        TlcpRequestSampler x = new TlcpRequestSampler();
        x.setName("bench");
        x.setEngine("bgm");
        x.setHost(p.getProperty("gmssl.host"));
        x.setPort(port);
        x.setProtocol("");
        x.setSuite(s.name());
        x.setMode(TlcpRequestSampler.MODE_HANDSHAKE);
        x.setPath("/64b");
        x.setCaFile(p.getProperty("gmssl.ca.file"));
        x.setClientKeyStore(p.getProperty("gmssl.client.keystore"));
        x.setClientKeyStorePassword(p.getProperty("gmssl.client.password"));
        x.setClientSignAlias("sign");
        x.setClientEncAlias("enc");
        x.setConnectTimeout("5000");
        x.setResponseTimeout("20000");
        return x;
    }
}
