package org.trustload.jmeter.kms;

import java.io.File;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.ClientConfig;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsConnection;
import org.trustload.kms.KmsSettings;

/**
 * KMS Client Config (TrustLoad): which KMS the KMS Requests call and how — backend, endpoint, region,
 * credentials (AWS access keys or an Alibaba client key file and its password), CA file or trust-all,
 * timeouts, connection pool size, retries. Builds the backend's client once at test start (JMeter
 * properties and functions work, thread variables do not), shares it with every thread and closes it
 * at test end; a wrong setting (unknown backend, missing or unreadable CA or client key file, wrong
 * client key password, unknown host) stops the test before the first sample. KMS Requests find it by
 * its {@code configName}. In distributed mode each engine builds its own client.
 *
 * <p>Property names are stored in users' plans: never rename them.
 */
public class KmsClientConfig extends ClientConfig<KmsConnection> {
    private static final long serialVersionUID = 1L;

    /** What users see in menus and messages. */
    static final String KIND = "KMS Client Config";

    private String backend = KmsBackends.AWS;
    private String endpoint = "";
    private String region = "";
    private String accessKeyId = "";
    private String secretAccessKey = "";
    private String clientKeyFile = "";
    private String clientKeyPassword = "";
    private String caFile = "";
    private boolean trustAll;
    private String maxConnections = String.valueOf(KmsSettings.DEFAULT_MAX_CONNECTIONS);
    private String retries = "0";

    public KmsClientConfig() {
        super(KIND, KmsConnection.class, "kms", KmsSettings.DEFAULT_CONNECT_TIMEOUT_MS,
                KmsSettings.DEFAULT_RESPONSE_TIMEOUT_MS);
    }

    @Override
    protected KmsConnection build(PropertyParser p) throws ClientException {
        KmsRequestSampler.resetStarted();
        KmsBackends.byName(backend); // an unknown backend first: the other settings depend on it
        return KmsBackends.open(backend, settings(p));
    }

    /** The validated settings; files resolved like JMeter's (relative to the plan's directory). */
    KmsSettings settings(PropertyParser p) throws ClientException {
        File ca = trustAll ? null : p.file("caFile", caFile, false);
        File key = p.file("clientKeyFile", clientKeyFile, false);
        return KmsSettings.builder()
                .endpoint(endpoint)
                .region(region)
                .credentials(accessKeyId, p.secret(secretAccessKey))
                .clientKey(key == null ? "" : key.getPath(), p.secret(clientKeyPassword))
                .caFile(ca == null ? "" : ca.getPath())
                .trustAll(trustAll)
                .connectTimeoutMs(connectTimeoutMs(p))
                .responseTimeoutMs(responseTimeoutMs(p))
                .maxConnections(
                        p.integer("maxConnections", maxConnections, KmsSettings.DEFAULT_MAX_CONNECTIONS, 1, 100_000))
                .maxRetries(p.integer("retries", retries, 0, 0, 100))
                .build();
    }

    // ---- bean accessors (names are the stored property names) ----

    public String getBackend() {
        return backend;
    }

    public void setBackend(String backend) {
        this.backend = backend;
    }

    public String getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(String endpoint) {
        this.endpoint = endpoint;
    }

    public String getRegion() {
        return region;
    }

    public void setRegion(String region) {
        this.region = region;
    }

    public String getAccessKeyId() {
        return accessKeyId;
    }

    public void setAccessKeyId(String accessKeyId) {
        this.accessKeyId = accessKeyId;
    }

    public String getSecretAccessKey() {
        return secretAccessKey;
    }

    public void setSecretAccessKey(String secretAccessKey) {
        this.secretAccessKey = secretAccessKey;
    }

    public String getClientKeyFile() {
        return clientKeyFile;
    }

    public void setClientKeyFile(String clientKeyFile) {
        this.clientKeyFile = clientKeyFile;
    }

    public String getClientKeyPassword() {
        return clientKeyPassword;
    }

    public void setClientKeyPassword(String clientKeyPassword) {
        this.clientKeyPassword = clientKeyPassword;
    }

    public String getCaFile() {
        return caFile;
    }

    public void setCaFile(String caFile) {
        this.caFile = caFile;
    }

    public boolean isTrustAll() {
        return trustAll;
    }

    public void setTrustAll(boolean trustAll) {
        this.trustAll = trustAll;
    }

    public String getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(String maxConnections) {
        this.maxConnections = maxConnections;
    }

    public String getRetries() {
        return retries;
    }

    public void setRetries(String retries) {
        this.retries = retries;
    }
}
