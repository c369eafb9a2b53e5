package org.trustload.lab.ldap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ServerSocketFactory;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.trustload.lab.EndpointInUseException;

/**
 * Makes UnboundID's {@code LDAPListener} listen on a Unix domain socket (ldapi): every
 * {@code createServerSocket} variant returns a junixsocket server socket bound to one path and
 * ignores the TCP port and address the listener asks for.
 */
public final class UnixSocketServerSocketFactory extends ServerSocketFactory {
    private final Path socket;

    /** @param socket the socket file to bind; a stale file left by a dead process is replaced */
    public UnixSocketServerSocketFactory(Path socket) {
        this.socket = socket;
    }

    @Override
    public ServerSocket createServerSocket() throws IOException {
        return bind(50);
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        return bind(50);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog) throws IOException {
        return bind(backlog);
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog, InetAddress ifAddress) throws IOException {
        return bind(backlog);
    }

    private ServerSocket bind(int backlog) throws IOException {
        AFUNIXSocketAddress address = AFUNIXSocketAddress.of(socket);
        if (Files.exists(socket)) {
            // binding would silently take the path over from a live server; only replace a dead one
            if (isLive(address)) {
                throw new EndpointInUseException(socket.toString(), null);
            }
            Files.delete(socket);
        }
        AFUNIXServerSocket server = AFUNIXServerSocket.newInstance();
        server.bind(address, backlog > 0 ? backlog : 50);
        return server;
    }

    /**
     * Fails if a server already accepts connections on {@code socket}; lets a service check before it
     * creates files next to the socket that a running lab is using.
     */
    public static void ensureNotLive(Path socket) throws IOException {
        if (Files.exists(socket) && isLive(AFUNIXSocketAddress.of(socket))) {
            throw new EndpointInUseException(socket.toString(), null);
        }
    }

    private static boolean isLive(AFUNIXSocketAddress address) {
        try {
            AFUNIXSocket.connectTo(address).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
