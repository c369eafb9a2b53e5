package org.trustload.lab.kms;

import java.nio.file.Path;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.trustload.lab.LabContext;

/**
 * One KMS protocol emulator run by {@link KmsLabService} (AWS JSON protocol, Alibaba KMS instance protobuf).
 * The service creates the shared TLS certificate and one {@link KmsFaults} per emulator, starts the
 * emulators in list order, merges their properties, and closes them in reverse order.
 */
public interface KmsEmulator extends AutoCloseable {

    /** Short name for messages and file names, e.g. {@code aws}. */
    String name();

    /**
     * Binds the emulator's listeners on 127.0.0.1 (its own offsets from docs/lab.md) and starts serving.
     *
     * @param ctx ports and directories
     * @param tls server TLS context with the lab's KMS certificate (its PEM is {@code kms.ca.file})
     * @param dir private directory (0700) for generated key material, e.g. client key files
     * @param faults the throttling and delay switches of this emulator
     * @throws org.trustload.lab.EndpointInUseException if a port is taken
     */
    void start(LabContext ctx, SSLContext tls, Path dir, KmsFaults faults) throws Exception;

    /** The {@code lab.properties} entries, e.g. {@code kms.aws.endpoint}; stable order. */
    Map<String, String> properties();

    /** Stops serving; safe to call more than once and after a failed start. */
    @Override
    void close();
}
