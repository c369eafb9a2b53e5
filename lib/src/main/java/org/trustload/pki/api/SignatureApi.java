package org.trustload.pki.api;

import java.net.http.HttpClient;
import java.util.Set;
import org.trustload.pki.PkiException;

/**
 * A signature server's published API behind a name ({@code dss}, {@code rest-pki},
 * {@code rest-pki-core}), found through {@code META-INF/services/org.trustload.pki.api.SignatureApi}
 * by {@link SignatureApis#byName}. Each implementation speaks its product's paths, fields, status codes,
 * algorithm names and error bodies exactly. Implementations have a public no-argument constructor and
 * are stateless; the state lives in the {@link SignatureApiClient}.
 */
public interface SignatureApi {

    /** What an API offers; elements refuse the rest before anything is sent (a configuration error). */
    enum Feature {
        /** CAdES at level B with the client's key (start, sign here, complete). */
        CADES,
        /** PAdES at level B with the client's key. */
        PADES,
        /** CAdES-T and PAdES-T: the server adds the signature timestamp. */
        LEVEL_T,
        /** Signatures with a key the server holds (no client-side step). */
        SERVER_KEYS,
        /** Certificate login by challenge–response through the API. */
        LOGIN,
        /** Timestamps through the API's own (JSON) timestamp service. */
        TIMESTAMP
    }

    /** The stable name used in plans, e.g. {@code rest-pki}. */
    String name();

    /** The product and API as users know them, for messages, e.g. {@code Lacuna Rest PKI (classic /Api)}. */
    String product();

    /** What this API offers. */
    Set<Feature> features();

    /**
     * The product's name for a signature's level: {@code policy} checked (a Rest PKI signature policy id, a
     * DSS signature level), or the API's default for the format and level when it is empty. Elements call
     * it before the first sample.
     *
     * @param format {@code cades} or {@code pades}
     * @throws PkiException {@code configError} about {@code signaturePolicy} for a value the API cannot have
     */
    String signaturePolicy(String format, boolean timestamped, String policy) throws PkiException;

    /**
     * The client of this API at {@code settings.baseUrl()} over the shared {@code http} client (its
     * owner's to close). Cheap; does not contact the server.
     *
     * @throws PkiException {@code configError} for settings this API cannot use
     */
    SignatureApiClient open(ApiSettings settings, HttpClient http) throws PkiException;
}
