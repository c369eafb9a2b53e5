package org.trustload.lab;

import java.util.Map;

/**
 * One target service of the lab (ldap, later pki, kms, gmssl, pdp, http).
 *
 * <p>Implementations are found through {@link java.util.ServiceLoader}, so a new service plugs in
 * with a line in {@code META-INF/services/org.trustload.lab.LabService}. The lab calls
 * {@link #start(LabContext)} once, then {@link #properties()} to collect the endpoints for
 * {@code lab.properties}, and {@link #close()} on shutdown (also after a failed start).
 */
public interface LabService extends AutoCloseable {

    /** The name used with {@code --services}; lower case, stable. */
    String name();

    /**
     * Starts the service; returns only when every endpoint accepts connections.
     *
     * @throws EndpointInUseException if a port or socket path it needs is taken
     */
    void start(LabContext ctx) throws Exception;

    /** The {@code lab.properties} entries this service contributes, in a stable order. */
    Map<String, String> properties();

    /** Stops the service and removes the files it created; safe to call more than once. */
    @Override
    void close();
}
