package org.trustload.pki.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import org.trustload.pki.PkiException;

/** Finds {@link SignatureApi}s by name through {@link ServiceLoader}. */
public final class SignatureApis {
    /** EU DSS's REST services (one-document signature, server signing, timestamp service). */
    public static final String DSS = "dss";
    /** Lacuna Rest PKI's classic API ({@code /Api/…}, Bearer token), the one of the published study. */
    public static final String REST_PKI = "rest-pki";
    /** Lacuna Rest PKI Core's API ({@code api/…}, X-Api-Key). */
    public static final String REST_PKI_CORE = "rest-pki-core";

    private SignatureApis() {
    }

    /** Names of the APIs on the class path, in service order. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (SignatureApi a : ServiceLoader.load(SignatureApi.class, SignatureApis.class.getClassLoader())) {
            names.add(a.name());
        }
        return names;
    }

    /**
     * The API called {@code name} (case-insensitive).
     *
     * @throws PkiException {@code configError} about the {@code api} setting, naming the available ones
     */
    public static SignatureApi byName(String name) throws PkiException {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (SignatureApi a : ServiceLoader.load(SignatureApi.class, SignatureApis.class.getClassLoader())) {
            if (a.name().equals(wanted)) {
                return a;
            }
        }
        throw PkiException.setting("api", "unknown API '" + (name == null ? "" : name.trim()) + "' (available: "
                + String.join(", ", names()) + ")");
    }

    /**
     * Refuses what the API does not offer, before anything is sent.
     *
     * @throws PkiException {@code configError} about {@code setting}, saying what the API offers
     */
    public static void require(SignatureApi api, SignatureApi.Feature feature, String setting, String what)
            throws PkiException {
        if (!api.features().contains(feature)) {
            throw PkiException.setting(setting, "the " + api.name() + " API (" + api.product() + ") has no " + what);
        }
    }
}
