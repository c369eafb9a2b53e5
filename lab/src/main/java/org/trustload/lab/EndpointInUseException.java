package org.trustload.lab;

import java.io.IOException;

/**
 * A port or Unix socket the lab needs is already taken by another process.
 *
 * <p>The lab exits with status 3 on this error, so launchers can tell it from a usage error (2).
 */
public final class EndpointInUseException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String endpoint;

    /**
     * @param endpoint what is taken, as the user would name it: {@code 127.0.0.1:10389} or a socket path
     * @param cause the underlying bind failure, if any
     */
    public EndpointInUseException(String endpoint, Throwable cause) {
        super(endpoint + " is already in use", cause);
        this.endpoint = endpoint;
    }

    /** The taken endpoint, e.g. {@code 127.0.0.1:10389}. */
    public String endpoint() {
        return endpoint;
    }
}
