package org.trustload.pki.api;

import java.net.URI;
import java.time.Duration;

/**
 * Where a signature API is and how to reach it.
 *
 * @param baseUrl         the API's base, e.g. {@code http://host:8080/services/rest} (DSS) or
 *                        {@code https://host/} (Rest PKI: classic routes under {@code Api/}, Core under
 *                        {@code api/})
 * @param credential      the API credential (a Bearer token for Rest PKI, an API key for Rest PKI Core,
 *                        optional for DSS), or ""; never printed
 * @param securityContext Rest PKI's security context id (which CAs it trusts), or "" for the server's default
 * @param responseTimeout per request, headers and body
 */
public record ApiSettings(URI baseUrl, String credential, String securityContext, Duration responseTimeout) {
    public ApiSettings {
        credential = credential == null ? "" : credential.trim();
        securityContext = securityContext == null ? "" : securityContext.trim();
    }

    /** Whether a credential is configured. */
    public boolean hasCredential() {
        return !credential.isEmpty();
    }

    @Override
    public String toString() {
        return "ApiSettings[" + baseUrl + ", credential " + (hasCredential() ? "set" : "none") + "]";
    }
}
