package org.trustload.kms;

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
        throw KmsException.config("UnknownBackend", "unknown KMS backend '" + name + "' (available: "
                + String.join(", ", names()) + ")");
    }

    /**
     * Refuses an operation the backend does not serve, before anything is sent.
     *
     * @throws KmsException CONFIG_ERROR {@code UnsupportedOperation} naming the backend and what it serves
     */
    public static void requireOperation(KmsBackend backend, KmsOperation op) throws KmsException {
        if (!backend.operations().contains(op)) {
            throw KmsException.config("UnsupportedOperation", "the " + backend.name() + " backend does not serve "
                    + op.planName() + " (it serves " + String.join(", ", backend.operations().stream()
                    .map(KmsOperation::planName).toList()) + ")");
        }
    }
}
