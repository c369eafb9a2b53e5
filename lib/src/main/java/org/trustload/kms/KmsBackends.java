package org.trustload.kms;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/** Finds {@link KmsBackend}s by name through {@link ServiceLoader}. */
public final class KmsBackends {
    /** Name of the AWS SDK v2 backend. */
    public static final String AWS = "aws-kms";
    /** Name of the Alibaba KMS instance SDK backend. */
    public static final String ALIYUN = "aliyun-kms-instance";

    private KmsBackends() {
    }

    /** Names of the backends on the class path, in service order. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (KmsBackend b : ServiceLoader.load(KmsBackend.class, KmsBackends.class.getClassLoader())) {
            names.add(b.name());
        }
        return names;
    }

    /**
     * The backend called {@code name} (case-insensitive).
     *
     * @throws KmsException category CONFIG_ERROR ({@code UnknownBackend}) naming the available ones
     */
    public static KmsBackend byName(String name) throws KmsException {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (KmsBackend b : ServiceLoader.load(KmsBackend.class, KmsBackends.class.getClassLoader())) {
            if (b.name().equals(wanted)) {
                return b;
            }
        }
        throw KmsException.config("UnknownBackend", "backend", "unknown backend '" + name + "' (available: "
                + String.join(", ", names()) + ")");
    }

    /**
     * Finds the backend called {@code name} and opens its client for {@code settings}: what a KMS
     * client configuration does once per test.
     *
     * @throws KmsException CONFIG_ERROR for an unknown backend or settings the backend cannot use
     */
    public static KmsConnection open(String name, KmsSettings settings) throws KmsException {
        KmsBackend backend = byName(name);
        return new KmsConnection(backend, settings, backend.open(settings));
    }

    /**
     * Resolves the endpoint's host once, before any request: an unknown host is a wrong setting
     * (stop and fix the endpoint), not a failure to count per request.
     *
     * @throws KmsException CONFIG_ERROR {@code UnknownHost} about the {@code endpoint} setting
     */
    public static void requireKnownHost(String host) throws KmsException {
        try {
            InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw KmsException.config("UnknownHost", "endpoint", "unknown host '" + host + "'");
        }
    }

    /**
     * Refuses an operation the backend does not serve, before anything is sent.
     *
     * @throws KmsException CONFIG_ERROR {@code UnsupportedOperation} naming the backend and what it serves
     */
    public static void requireOperation(KmsBackend backend, KmsOperation op) throws KmsException {
        if (!backend.operations().contains(op)) {
            throw KmsException.config("UnsupportedOperation", "operation",
                    "the " + backend.name() + " backend does not serve "
                    + op.planName() + " (it serves " + String.join(", ", backend.operations().stream()
                    .map(KmsOperation::planName).toList()) + ")");
        }
    }
}
