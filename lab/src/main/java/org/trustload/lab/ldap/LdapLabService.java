package org.trustload.lab.ldap;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedSearchRequest;
import com.unboundid.ldap.listener.interceptor.InMemoryOperationInterceptor;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.IOException;
import java.net.BindException;
import java.security.GeneralSecurityException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.newsclub.net.unix.AFUNIXSocket;
import org.trustload.lab.EndpointInUseException;
import org.trustload.lab.LabContext;
import org.trustload.lab.LabSecrets;
import org.trustload.lab.LabService;
import org.trustload.lab.SelfSignedTls;
import org.trustload.lab.Tally;
import org.trustload.lab.UnixIdentity;

/**
 * The {@code ldap} lab service: an UnboundID in-memory directory with base {@value #BASE_DN},
 * users {@code cn=fulano1..N} ({@code uid=fulanoI}) and an admin entry, served over
 * <ul>
 *   <li>ldap on 127.0.0.1:base+389, with StartTLS,</li>
 *   <li>ldaps on 127.0.0.1:base+636 (self-signed certificate made at start),</li>
 *   <li>ldapi on {@code <socket-dir>/ldapi}, with SASL EXTERNAL mapped from the peer's uid/gid.</li>
 * </ul>
 */
public final class LdapLabService implements LabService {

    /** The directory's only naming context. */
    public static final String BASE_DN = "dc=testeperformance";
    /** The DN for simple binds with write access. */
    public static final String ADMIN_DN = "cn=admin," + BASE_DN;
    /** Port offset of the ldap listener. */
    public static final int LDAP_OFFSET = 389;
    /** Port offset of the ldaps listener. */
    public static final int LDAPS_OFFSET = 636;

    private static final String[] USER_CLASSES = {"top", "person", "organizationalPerson", "inetOrgPerson"};

    private InMemoryDirectoryServer server;
    private final Tally filters = new Tally();
    private SelfSignedTls tls;
    private Path ldapiSocket;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private long importMillis;
    /** Random per start ({@link LabSecrets}), written to lab.properties: the admin's password. */
    private final String adminPassword = LabSecrets.generate();
    /** Random per start: the password of every {@code cn=fulanoI} user, for plans that bind as a user. */
    private final String userPassword = LabSecrets.generate();

    @Override
    public String name() {
        return "ldap";
    }

    @Override
    public synchronized void start(LabContext ctx) throws Exception {
        int ldapPort = ctx.port(LDAP_OFFSET);
        int ldapsPort = ctx.port(LDAPS_OFFSET);
        Path socket = ctx.socketDir().resolve("ldapi");
        boolean ldapi = AFUNIXSocket.isSupported();
        if (ldapi) {
            // before generating key material: it would overwrite the files of a lab using the same dir
            UnixSocketServerSocketFactory.ensureNotLive(socket);
        }
        // RSA key generation and the import are both CPU-bound and independent: overlap them.
        CompletableFuture<SelfSignedTls> tlsFuture = CompletableFuture.supplyAsync(() -> {
            try {
                return SelfSignedTls.generate(ctx.socketDir(), "ldap", LabSecrets.generate(), ctx.host());
            } catch (IOException | GeneralSecurityException e) {
                throw new CompletionException(e);
            }
        });
        long t0 = System.nanoTime();
        List<Entry> entries = directoryEntries(ctx.users(), adminPassword, userPassword);
        InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig(BASE_DN);
        // Without equality indexes every (cn=...) search scans all entries: 15-30 ms at 10k users.
        config.setEqualityIndexAttributes("cn", "uid");
        config.addSASLBindHandler(new PeerCredentialsExternalBindHandler());
        // what the searches asked for, printed at stop (a plan that asks for one entry measures a cache)
        config.addInMemoryOperationInterceptor(new InMemoryOperationInterceptor() {
            @Override
            public void processSearchRequest(InMemoryInterceptedSearchRequest request) {
                filters.add(request.getRequest().getFilter().toString());
            }
        });
        config.setVendorName("TrustLoad lab");
        InMemoryDirectoryServer loaded = new InMemoryDirectoryServer(config);
        // One call, one lock, entries built as objects: no LDIF parsing and no protocol round trips.
        try {
            loaded.addEntries(entries);
        } catch (LDAPException e) {
            // wait for the key material so close() removes it rather than leaving it to appear later
            tls = tlsFuture.exceptionally(t -> null).join();
            throw e;
        }
        importMillis = (System.nanoTime() - t0) / 1_000_000;
        System.err.printf(Locale.ROOT, "trustload-lab: ldap imported %d entries in %d ms%n",
                entries.size(), importMillis);
        try {
            tls = tlsFuture.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }

        List<InMemoryListenerConfig> listeners = new ArrayList<>();
        listeners.add(InMemoryListenerConfig.createLDAPConfig("ldap", ctx.bindAddress(), ldapPort,
                tls.serverContext().getSocketFactory()));
        listeners.add(InMemoryListenerConfig.createLDAPSConfig("ldaps", ctx.bindAddress(), ldapsPort,
                tls.serverContext().getServerSocketFactory(), null));
        if (ldapi) {
            // port and address are ignored by the factory; the listener only needs something valid
            listeners.add(new InMemoryListenerConfig("ldapi", ctx.bindAddress(), 0,
                    new UnixSocketServerSocketFactory(socket), null, null));
        } else {
            System.err.println("trustload-lab: junixsocket does not support this platform; ldap runs without ldapi");
        }

        // Listeners are part of the server's config, and the TLS ones need the certificate; so the
        // serving instance is built after the import and takes the loaded data over as a snapshot.
        config.setListenerConfigs(listeners);
        server = new InMemoryDirectoryServer(config);
        server.restoreSnapshot(loaded.createSnapshot());

        startListener("ldap", ctx.authority(ldapPort));
        startListener("ldaps", ctx.authority(ldapsPort));
        if (ldapi) {
            try {
                startListener("ldapi", socket.toString());
                ldapiSocket = socket;
            } catch (EndpointInUseException e) {
                throw e;
            } catch (LDAPException e) {
                System.err.println("trustload-lab: ldapi unavailable, continuing with ldap and ldaps: " + e);
            }
        }

        properties.put("ldap.host", ctx.host());
        properties.put("ldap.port", String.valueOf(ldapPort));
        properties.put("ldaps.port", String.valueOf(ldapsPort));
        if (ldapiSocket != null) {
            properties.put("ldapi.socket", ldapiSocket.toAbsolutePath().toString());
        }
        properties.put("ldap.base", BASE_DN);
        properties.put("ldap.users", String.valueOf(ctx.users()));
        properties.put("ldap.admin.dn", ADMIN_DN);
        properties.put("ldap.admin.password", adminPassword);
        properties.put("ldap.user.password", userPassword);
        properties.put("ldap.truststore", tls.trustStore().toAbsolutePath().toString());
        properties.put("ldap.truststore.password", tls.password());
        properties.put("ldap.truststore.type", "PKCS12");
        properties.put("ldap.truststore.pem", tls.pem().toAbsolutePath().toString());
        properties.put("ldap.external.dn",
                PeerCredentialsExternalBindHandler.peerDn(UnixIdentity.uid(), UnixIdentity.gid()));
    }

    private void startListener(String name, String endpoint) throws LDAPException, EndpointInUseException {
        try {
            server.startListening(name);
        } catch (LDAPException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof EndpointInUseException inUse) {
                    throw inUse;
                }
                if (t instanceof BindException) {
                    throw new EndpointInUseException(endpoint + " (" + name + ")", e);
                }
            }
            throw e;
        }
    }

    /**
     * The base entry, the admin and {@code users} people; built as objects because parsing LDIF text
     * (or adding over the wire) is what makes a naive import slow.
     */
    static List<Entry> directoryEntries(int users, String adminPassword, String userPassword) {
        List<Entry> entries = new ArrayList<>(users + 2);
        entries.add(new Entry(BASE_DN,
                new Attribute("objectClass", "top", "domain"),
                new Attribute("dc", "testeperformance")));
        entries.add(new Entry(ADMIN_DN,
                new Attribute("objectClass", "top", "organizationalRole", "simpleSecurityObject"),
                new Attribute("cn", "admin"),
                new Attribute("description", "TrustLoad lab administrator"),
                new Attribute("userPassword", adminPassword)));
        Attribute objectClass = new Attribute("objectClass", USER_CLASSES);
        Attribute password = new Attribute("userPassword", userPassword);
        for (int i = 1; i <= users; i++) {
            String name = "fulano" + i;
            entries.add(new Entry("cn=" + name + "," + BASE_DN,
                    objectClass,
                    new Attribute("cn", name),
                    new Attribute("sn", name),
                    new Attribute("uid", name),
                    password));
        }
        return entries;
    }

    /** How long the last import took, in milliseconds. */
    public synchronized long importMillis() {
        return importMillis;
    }

    @Override
    public synchronized Map<String, String> properties() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.shutDown(true);
            server = null;
            filters.print("ldap", "searches", "filters");
        }
        if (ldapiSocket != null) {
            try {
                Files.deleteIfExists(ldapiSocket);
            } catch (IOException e) {
                System.err.println("trustload-lab: cannot remove " + ldapiSocket + ": " + e);
            }
            ldapiSocket = null;
        }
        if (tls != null) {
            tls.delete();
            tls = null;
        }
    }
}
