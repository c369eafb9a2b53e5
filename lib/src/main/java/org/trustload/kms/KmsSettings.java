package org.trustload.kms;

import java.util.Objects;

/**
 * How to reach and authenticate to a KMS: one value per test, shared by every thread. Immutable;
 * {@link #toString} never shows secrets. Which fields a backend reads:
 * <ul>
 *   <li>{@code aws-kms}: endpoint (empty = the AWS default for the region), region, access key id +
 *       secret access key (both empty = the SDK's default credential chain);</li>
 *   <li>{@code aliyun-kms-instance}: endpoint ({@code host:port} or URL), client key file + password;</li>
 *   <li>both: CA file or trust-all (for HTTPS), timeouts, max connections, retries.</li>
 * </ul>
 */
public final class KmsSettings {
    /** Default connect timeout, ms. */
    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
    /** Default response timeout, ms. */
    public static final int DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
    /** Default connection pool size (the published benchmark's 32 threads). */
    public static final int DEFAULT_MAX_CONNECTIONS = 32;

    private final String endpoint;
    private final String region;
    private final String accessKeyId;
    private final String secretAccessKey;
    private final String clientKeyFile;
    private final String clientKeyPassword;
    private final String caFile;
    private final boolean trustAll;
    private final int connectTimeoutMs;
    private final int responseTimeoutMs;
    private final int maxConnections;
    private final int maxRetries;

    private KmsSettings(Builder b) {
        this.endpoint = b.endpoint;
        this.region = b.region;
        this.accessKeyId = b.accessKeyId;
        this.secretAccessKey = b.secretAccessKey;
        this.clientKeyFile = b.clientKeyFile;
        this.clientKeyPassword = b.clientKeyPassword;
        this.caFile = b.caFile;
        this.trustAll = b.trustAll;
        this.connectTimeoutMs = b.connectTimeoutMs;
        this.responseTimeoutMs = b.responseTimeoutMs;
        this.maxConnections = b.maxConnections;
        this.maxRetries = b.maxRetries;
    }

    /** A builder with the defaults: no endpoint, 5 s / 30 s timeouts, 32 connections, no retries. */
    public static Builder builder() {
        return new Builder();
    }

    /** The endpoint URL ({@code https://127.0.0.1:18611}) or {@code host:port}; empty = backend default. */
    public String endpoint() {
        return endpoint;
    }

    /** Region, e.g. {@code us-east-1}; empty = backend default. */
    public String region() {
        return region;
    }

    /** Access key id (AWS); empty = default credentials. */
    public String accessKeyId() {
        return accessKeyId;
    }

    /** Secret access key (AWS). A secret: never log it. */
    public String secretAccessKey() {
        return secretAccessKey;
    }

    /** Client key file (Alibaba KMS instance: JSON {@code {KeyId, PrivateKeyData}}). */
    public String clientKeyFile() {
        return clientKeyFile;
    }

    /** Password of the client key file. A secret: never log it. */
    public String clientKeyPassword() {
        return clientKeyPassword;
    }

    /** PEM file with the CA certificate(s) to trust for HTTPS; empty = the JVM's trust store. */
    public String caFile() {
        return caFile;
    }

    /** Trust any server certificate (explicit opt-in, for test servers only). */
    public boolean trustAll() {
        return trustAll;
    }

    public int connectTimeoutMs() {
        return connectTimeoutMs;
    }

    public int responseTimeoutMs() {
        return responseTimeoutMs;
    }

    /** Size of the shared connection pool; set it to at least the number of threads. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Retries after a failed call; 0 (the default) so every failure shows in the results. */
    public int maxRetries() {
        return maxRetries;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KmsSettings s)) {
            return false;
        }
        return trustAll == s.trustAll && connectTimeoutMs == s.connectTimeoutMs
                && responseTimeoutMs == s.responseTimeoutMs && maxConnections == s.maxConnections
                && maxRetries == s.maxRetries && endpoint.equals(s.endpoint) && region.equals(s.region)
                && accessKeyId.equals(s.accessKeyId) && secretAccessKey.equals(s.secretAccessKey)
                && clientKeyFile.equals(s.clientKeyFile) && clientKeyPassword.equals(s.clientKeyPassword)
                && caFile.equals(s.caFile);
    }

    @Override
    public int hashCode() {
        return Objects.hash(endpoint, region, accessKeyId, clientKeyFile, caFile, trustAll, connectTimeoutMs,
                responseTimeoutMs, maxConnections, maxRetries);
    }

    /** Shows every field except the secrets, which appear as {@code ***} when set. */
    @Override
    public String toString() {
        return "KmsSettings[endpoint=" + endpoint + ", region=" + region + ", accessKeyId=" + accessKeyId
                + ", secretAccessKey=" + mask(secretAccessKey) + ", clientKeyFile=" + clientKeyFile
                + ", clientKeyPassword=" + mask(clientKeyPassword) + ", caFile=" + caFile + ", trustAll=" + trustAll
                + ", connectTimeoutMs=" + connectTimeoutMs + ", responseTimeoutMs=" + responseTimeoutMs
                + ", maxConnections=" + maxConnections + ", maxRetries=" + maxRetries + "]";
    }

    private static String mask(String secret) {
        return secret.isEmpty() ? "" : "***";
    }

    /** Builder; null strings become empty. */
    public static final class Builder {
        private String endpoint = "";
        private String region = "";
        private String accessKeyId = "";
        private String secretAccessKey = "";
        private String clientKeyFile = "";
        private String clientKeyPassword = "";
        private String caFile = "";
        private boolean trustAll;
        private int connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
        private int responseTimeoutMs = DEFAULT_RESPONSE_TIMEOUT_MS;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private int maxRetries;

        private Builder() {
        }

        private static String clean(String s) {
            return s == null ? "" : s.trim();
        }

        public Builder endpoint(String v) {
            endpoint = clean(v);
            return this;
        }

        public Builder region(String v) {
            region = clean(v);
            return this;
        }

        /** Static credentials (AWS); both empty = the default credential chain. */
        public Builder credentials(String accessKeyId, String secretAccessKey) {
            this.accessKeyId = clean(accessKeyId);
            this.secretAccessKey = secretAccessKey == null ? "" : secretAccessKey;
            return this;
        }

        /** Client key file and its password (Alibaba KMS instance). */
        public Builder clientKey(String file, String password) {
            this.clientKeyFile = clean(file);
            this.clientKeyPassword = password == null ? "" : password;
            return this;
        }

        public Builder caFile(String v) {
            caFile = clean(v);
            return this;
        }

        public Builder trustAll(boolean v) {
            trustAll = v;
            return this;
        }

        public Builder connectTimeoutMs(int v) {
            connectTimeoutMs = v;
            return this;
        }

        public Builder responseTimeoutMs(int v) {
            responseTimeoutMs = v;
            return this;
        }

        public Builder maxConnections(int v) {
            maxConnections = v;
            return this;
        }

        public Builder maxRetries(int v) {
            maxRetries = v;
            return this;
        }

        /**
         * Checks the values that every backend needs.
         *
         * @throws KmsException category CONFIG_ERROR when a timeout or a count is out of range
         */
        public KmsSettings build() throws KmsException {
            if (connectTimeoutMs <= 0 || responseTimeoutMs <= 0) {
                throw KmsException.config("BadTimeout", connectTimeoutMs <= 0 ? "connectTimeout" : "responseTimeout",
                        "a timeout must be at least 1 ms");
            }
            if (maxConnections <= 0) {
                throw KmsException.config("BadMaxConnections", "maxConnections", "must be at least 1");
            }
            if (maxRetries < 0) {
                throw KmsException.config("BadRetries", "retries", "must be 0 or more");
            }
            return new KmsSettings(this);
        }
    }
}
