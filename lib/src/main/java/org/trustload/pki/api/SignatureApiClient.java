package org.trustload.pki.api;

import org.trustload.pki.Flow;
import org.trustload.pki.KeyMaterial;

/**
 * A {@link SignatureApi} opened at one server: signatures, certificate login and timestamps as named
 * steps ({@link Flow}). Never throws for what the server, the network or the key did: the failed step
 * carries it. Thread-safe; one per test.
 */
public interface SignatureApiClient {

    /** The API this client speaks. */
    SignatureApi api();

    /**
     * A signature: with the user's key, the product's two calls around a client-side {@code sign}
     * step; with a server-held key ({@link SignRequest#serverSigns()}), the product's server-signing calls.
     */
    Flow sign(SignRequest request);

    /** Certificate login by challenge–response through the API (the server's nonce signed with the user's key). */
    Flow login(KeyMaterial key);

    /**
     * A timestamp of {@code imprint} through the API's timestamp service.
     *
     * @param digest the algorithm that made the imprint, e.g. {@code SHA-256}
     * @param plan   Rest PKI's timestamp plan identifier ("" where the API has none)
     */
    Flow timestamp(byte[] imprint, String digest, String plan);
}
