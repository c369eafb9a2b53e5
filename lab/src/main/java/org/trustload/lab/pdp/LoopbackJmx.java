package org.trustload.lab.pdp;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.ExportException;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.HashMap;
import java.util.Map;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;

/**
 * The lab JVM's platform MBean server over JMX/RMI with the RMI registry and the connector server
 * on one port of the lab's address only (127.0.0.1 unless the lab's {@code --bind} names another). The JDK's
 * {@code com.sun.management.jmxremote.port} agent binds the connector server to every interface, hence this
 * explicit setup: both are exported through one {@link RMIServerSocketFactory} bound to that address (equal
 * instances share the listening socket).
 */
final class LoopbackJmx implements AutoCloseable {
    private final Registry registry;
    private final JMXConnectorServer server;
    private final String url;

    private LoopbackJmx(Registry registry, JMXConnectorServer server, String url) {
        this.registry = registry;
        this.server = server;
        this.url = url;
    }

    /** Starts the registry and the connector server on the lab's address, port {@code port}. */
    static LoopbackJmx start(LabContext ctx, int port) throws IOException {
        // stubs carry this host name; without it RMI may hand out the machine's external address
        if (System.getProperty("java.rmi.server.hostname") == null) {
            System.setProperty("java.rmi.server.hostname", ctx.host());
        }
        AddressSocketFactory sockets = new AddressSocketFactory(ctx.bindAddress());
        Registry registry;
        try {
            registry = LocateRegistry.createRegistry(port, null, sockets);
        } catch (ExportException e) {
            throw new EndpointInUseException(ctx.authority(port) + " (pdp jmx)", e);
        }
        String url = "service:jmx:rmi://" + ctx.authority(port) + "/jndi/rmi://" + ctx.authority(port) + "/jmxrmi";
        Map<String, Object> env = new HashMap<>();
        env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, sockets);
        JMXConnectorServer server;
        try {
            // The stub goes into the registry directly, as the JDK's own agent does, not through a JNDI
            // "rmi:" URL: that needs the jdk.naming.rmi module, which trimmed runtimes (jlink images such
            // as CI's Java 25 from PyPI) leave out. Clients connect with the usual jndi URL all the same.
            RMIJRMPServerImpl impl = new RMIJRMPServerImpl(port, null, sockets, env);
            server = new RMIConnectorServer(new JMXServiceURL("service:jmx:rmi://" + ctx.authority(port)), env,
                    impl, ManagementFactory.getPlatformMBeanServer());
            server.start();
            registry.rebind("jmxrmi", impl.toStub());
        } catch (IOException | RuntimeException e) {
            unexport(registry);
            throw e;
        }
        return new LoopbackJmx(registry, server, url);
    }

    /** The JMX service URL a client (jconsole, the JVM Stats listener) connects to. */
    String url() {
        return url;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (IOException e) {
            System.err.println("trustload-lab: pdp jmx stop: " + e);
        }
        unexport(registry);
    }

    private static void unexport(Registry registry) {
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException e) {
            // already gone
        }
    }

    /** Server sockets on one address; equal instances, so the registry and the connector share the port. */
    static final class AddressSocketFactory implements RMIServerSocketFactory {
        private final InetAddress address;

        AddressSocketFactory(InetAddress address) {
            this.address = address;
        }

        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 50, address);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof AddressSocketFactory f && f.address.equals(address);
        }

        @Override
        public int hashCode() {
            return address.hashCode();
        }
    }
}
