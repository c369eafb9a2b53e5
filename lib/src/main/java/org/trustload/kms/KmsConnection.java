package org.trustload.kms;

/**
 * A backend's client opened for one test ({@link KmsBackends#open}): the backend, the settings it was
 * opened with and the shared {@link KmsClient}. Refuses, before anything is sent, an operation the
 * backend does not serve. Thread-safe; closed once at test end.
 */
public final class KmsConnection implements KmsClient {
    private final KmsBackend backend;
    private final KmsSettings settings;
    private final KmsClient client;

    KmsConnection(KmsBackend backend, KmsSettings settings, KmsClient client) {
        this.backend = backend;
        this.settings = settings;
        this.client = client;
    }

    /** The backend's name, e.g. {@code aws-kms}. */
    public String backend() {
        return backend.name();
    }

    /** The settings this client was opened with ({@link KmsSettings#toString} hides the secrets). */
    public KmsSettings settings() {
        return settings;
    }

    /**
     * Refuses an operation the backend does not serve.
     *
     * @throws KmsException CONFIG_ERROR {@code UnsupportedOperation} about the {@code operation} setting
     */
    public void requireOperation(KmsOperation op) throws KmsException {
        KmsBackends.requireOperation(backend, op);
    }

    @Override
    public KmsResult execute(KmsRequest request) throws KmsException {
        requireOperation(request.operation());
        return client.execute(request);
    }

    @Override
    public void close() {
        client.close();
    }
}
