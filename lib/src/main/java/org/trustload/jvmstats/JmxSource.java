package org.trustload.jvmstats;

import static org.trustload.common.Closeables.closeQuietly;

import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A JVM over JMX (the platform MBeans: OperatingSystem, Memory, GarbageCollector, Threading). Every
 * connect and poll runs under a timeout on a private daemon thread, because the RMI connector has no
 * read timeout of its own: a port that accepts but never answers would otherwise block forever. The
 * registry lookup also uses sockets with connect and read timeouts so a stuck thread ends.
 */
public final class JmxSource implements StatsSource {

    private static final ObjectName OS = name("java.lang:type=OperatingSystem");
    private static final ObjectName MEMORY = name("java.lang:type=Memory");
    private static final ObjectName THREADING = name("java.lang:type=Threading");
    private static final ObjectName GCS = name("java.lang:type=GarbageCollector,*");

    private final JMXServiceURL url;
    private final SourceConfig config;
    private final ExecutorService calls;
    private final JMXConnector connector;
    private final MBeanServerConnection mbeans;
    private final ObjectName[] gcNames;
    private final String[] gcLabels;

    /** Connects, bounded by the config's connect timeout. */
    public JmxSource(SourceConfig config) throws StatsException {
        this(serviceUrl(config.target()), config);
    }

    JmxSource(JMXServiceURL url, SourceConfig config) throws StatsException {
        this.url = url;
        this.config = config;
        this.calls = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "trustload-jmx " + url.getURLPath());
            t.setDaemon(true);
            return t;
        });
        JMXConnector c = null;
        try {
            c = bounded(() -> JMXConnectorFactory.connect(url, env(config)), config.connectTimeoutMs(), "connect");
            this.connector = c;
            this.mbeans = c.getMBeanServerConnection();
            ObjectName[] names = bounded(() -> mbeans.queryNames(GCS, null).toArray(new ObjectName[0]),
                    config.callTimeoutMs(), "list collectors");
            this.gcNames = names;
            this.gcLabels = new String[names.length];
            for (int i = 0; i < names.length; i++) {
                gcLabels[i] = names[i].getKeyProperty("name");
            }
        } catch (StatsException | IOException | RuntimeException e) {
            closeQuietly(c);
            calls.shutdownNow();
            if (e instanceof StatsException s) {
                throw s;
            }
            throw new StatsException("JMX " + url + ": " + e, false, e);
        }
    }

    /** Accepts a full {@code service:jmx:} URL or {@code host:port} of an RMI registry. */
    static JMXServiceURL serviceUrl(String target) throws StatsException {
        String t = target.trim();
        if (t.isEmpty()) {
            throw new StatsException("no JMX target: give service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi or HOST:PORT",
                    false);
        }
        if (!t.startsWith("service:jmx:")) {
            if (!t.matches("[^/:\\s]+:\\d{1,5}|\\[[0-9a-fA-F:]+\\]:\\d{1,5}")) {
                throw new StatsException("bad JMX target '" + t + "': expected service:jmx:... or HOST:PORT", false);
            }
            t = "service:jmx:rmi:///jndi/rmi://" + t + "/jmxrmi";
        }
        try {
            return new JMXServiceURL(t);
        } catch (MalformedURLException e) {
            throw new StatsException("bad JMX URL '" + t + "': " + e.getMessage(), false, e);
        }
    }

    private static Map<String, Object> env(SourceConfig config) {
        Map<String, Object> env = new HashMap<>();
        if (!config.username().isEmpty()) {
            env.put(JMXConnector.CREDENTIALS, new String[] {config.username(), config.password()});
        }
        // used for the registry lookup of jndi/rmi URLs
        env.put("com.sun.jndi.rmi.factory.socket", new TimeoutSocketFactory((int) config.connectTimeoutMs(),
                (int) config.callTimeoutMs()));
        return env;
    }

    private <T> T bounded(Callable<T> call, long timeoutMs, String what) throws StatsException {
        Future<T> f = calls.submit(call);
        try {
            return f.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new StatsException("JMX " + url + ": " + what + " timed out after " + timeoutMs + " ms", false, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StatsException("JMX " + url + ": interrupted", false, e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof SecurityException) {
                throw new StatsException("JMX " + url + ": authentication failed: " + c.getMessage(), false, c);
            }
            boolean gone = connector != null && c instanceof IOException;
            throw new StatsException("JMX " + url + ": " + what + " failed: " + c, gone, c);
        }
    }

    @Override
    public StatsSnapshot poll() throws StatsException {
        return bounded(this::read, config.callTimeoutMs(), "poll");
    }

    private StatsSnapshot read() throws Exception {
        StatsSnapshot.Builder b = StatsSnapshot.builder(System.currentTimeMillis());
        Map<String, Object> os = attrs(OS, "ProcessCpuTime", "OpenFileDescriptorCount");
        Object cpu = os.get("ProcessCpuTime");
        if (cpu instanceof Number n && n.longValue() >= 0) {
            b.cpuMs(n.longValue() / 1e6);
        }
        CompositeData heap = (CompositeData) mbeans.getAttribute(MEMORY, "HeapMemoryUsage");
        b.heap(((Number) heap.get("used")).doubleValue(), ((Number) heap.get("committed")).doubleValue());
        GcNames.Totals t = new GcNames.Totals();
        for (int i = 0; i < gcNames.length; i++) {
            Map<String, Object> gc = attrs(gcNames[i], "CollectionCount", "CollectionTime");
            t.add(gcLabels[i], ((Number) gc.get("CollectionCount")).longValue(),
                    ((Number) gc.get("CollectionTime")).longValue());
        }
        t.fill(b);
        Object fds = os.get("OpenFileDescriptorCount");
        long threads = ((Number) mbeans.getAttribute(THREADING, "ThreadCount")).longValue();
        b.process(-1, threads, fds instanceof Number n ? n.longValue() : -1);
        return b.build();
    }

    private Map<String, Object> attrs(ObjectName on, String... names) throws Exception {
        AttributeList list = mbeans.getAttributes(on, names);
        Map<String, Object> m = new HashMap<>();
        for (Attribute a : list.asList()) {
            m.put(a.getName(), a.getValue());
        }
        return m;
    }

    @Override
    public String describe() {
        return "JMX " + url;
    }

    @Override
    public void close() {
        closeQuietly(connector);
        calls.shutdownNow();
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /** RMI client sockets with connect and read timeouts. */
    static final class TimeoutSocketFactory implements RMIClientSocketFactory, Serializable {
        private static final long serialVersionUID = 1L;
        private final int connectMs;
        private final int readMs;

        TimeoutSocketFactory(int connectMs, int readMs) {
            this.connectMs = connectMs;
            this.readMs = readMs;
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(host, port), connectMs);
                s.setSoTimeout(readMs);
                return s;
            } catch (IOException e) {
                s.close();
                throw e;
            }
        }
    }

    /** Factory for {@code jmx}. */
    public static final class Factory implements StatsSourceFactory {
        @Override
        public String name() {
            return "jmx";
        }

        @Override
        public StatsSource open(SourceConfig config) throws StatsException {
            return new JmxSource(config);
        }
    }
}
