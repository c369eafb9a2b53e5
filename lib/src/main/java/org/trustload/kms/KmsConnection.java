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
    /** Whether a request of this test got an answer: a refusal after that is an outage, not a wrong endpoint. */
    private volatile boolean reached;

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
        try {
            KmsResult r = client.execute(request);
            reached = true;
            return r;
        } catch (KmsException e) {
            if (e.httpStatus() > 0) {
                reached = true; // the service answered, with an error
            }
            throw e;
        }
    }

    /** True once any thread of this test got an answer from the service. */
    public boolean reached() {
        return reached;
    }

    @Override
    public void close() {
        client.close();
    }
}
