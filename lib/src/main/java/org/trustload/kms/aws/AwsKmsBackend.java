package org.trustload.kms.aws;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import javax.net.ssl.TrustManager;
import org.trustload.kms.KmsBackend;
import org.trustload.kms.KmsBackends;
import org.trustload.kms.KmsClient;
import org.trustload.kms.KmsException;
import org.trustload.kms.KmsSettings;
import org.trustload.kms.KmsTls;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpConfigurationOption;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.utils.AttributeMap;

/**
 * The {@code aws-kms} backend on AWS SDK v2 ({@code kms} + {@code secretsmanager}): one Apache HTTP
 * connection pool of {@link KmsSettings#maxConnections()} shared by both service clients, retries off
 * unless asked for, endpoint override for KMS-compatible servers (the lab, moto, LocalStack).
 */
public final class AwsKmsBackend implements KmsBackend {
    /** Region used when none is configured and the SDK's default chain finds none. */
    public static final String FALLBACK_REGION = "us-east-1";

    @Override
    public String name() {
        return KmsBackends.AWS;
    }

    @Override
    public KmsClient open(KmsSettings s) throws KmsException {
        URI endpoint = endpoint(s.endpoint());
        if (endpoint != null) {
            KmsBackends.requireKnownHost(endpoint.getHost());
        }
        Region region = region(s.region());
        AwsCredentialsProvider credentials = credentials(s);
        SdkHttpClient http = httpClient(s, endpoint);
        ClientOverrideConfiguration override = ClientOverrideConfiguration.builder()
                .retryPolicy(s.maxRetries() == 0 ? RetryPolicy.none()
                        : RetryPolicy.builder().numRetries(s.maxRetries()).build())
                // No apiCallAttemptTimeout: the SDK arms and cancels a timer task per call on one shared
                // ScheduledThreadPoolExecutor, whose queue lock 32 request threads contended (JFR: 270 parks in
                // DelayedWorkQueue.offer, 62 s blocked in a 12 s window; see docs/bench.md). The connect timeout
                // bounds the TCP connect; the socket timeout (set on the socket before the TLS handshake) bounds
                // every read, handshake included; the connection acquisition timeout bounds the wait for the pool.
                .build();
        try {
            var kmsBuilder = software.amazon.awssdk.services.kms.KmsClient.builder()
                    .httpClient(http).region(region).credentialsProvider(credentials).overrideConfiguration(override);
            var smBuilder = SecretsManagerClient.builder()
                    .httpClient(http).region(region).credentialsProvider(credentials).overrideConfiguration(override);
            if (endpoint != null) {
                kmsBuilder.endpointOverride(endpoint);
                smBuilder.endpointOverride(endpoint);
            }
            return new AwsKmsClient(kmsBuilder.build(), smBuilder.build(), http);
        } catch (RuntimeException e) {
            http.close();
            throw KmsException.config("BadSettings", "", "", "cannot build the AWS clients", e);
        }
    }

    static URI endpoint(String value) throws KmsException {
        if (value.isEmpty()) {
            return null;
        }
        String v = value.contains("://") ? value : "https://" + value;
        try {
            URI uri = new URI(v);
            if (uri.getHost() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
                throw KmsException.config("BadEndpoint", "endpoint",
                        "must be http(s)://host[:port], was '" + value + "'");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw KmsException.config("BadEndpoint", "endpoint", "not a URL: '" + value + "'");
        }
    }

    private static Region region(String value) {
        if (!value.isEmpty()) {
            return Region.of(value);
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (RuntimeException e) {
            return Region.of(FALLBACK_REGION);
        }
    }

    private static AwsCredentialsProvider credentials(KmsSettings s) throws KmsException {
        if (s.accessKeyId().isEmpty() && s.secretAccessKey().isEmpty()) {
            return DefaultCredentialsProvider.create();
        }
        if (s.accessKeyId().isEmpty() || s.secretAccessKey().isEmpty()) {
            throw KmsException.config("IncompleteCredentials", s.accessKeyId().isEmpty() ? "accessKeyId"
                    : "secretAccessKey",
                    "set both the access key id and the secret access key, or neither (default credentials)");
        }
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(s.accessKeyId(), s.secretAccessKey()));
    }

    private static SdkHttpClient httpClient(KmsSettings s, URI endpoint) throws KmsException {
        ApacheHttpClient.Builder b = ApacheHttpClient.builder()
                .maxConnections(s.maxConnections())
                .connectionTimeout(Duration.ofMillis(s.connectTimeoutMs()))
                .connectionAcquisitionTimeout(Duration.ofMillis(s.connectTimeoutMs()))
                .socketTimeout(Duration.ofMillis(s.responseTimeoutMs()))
                // the SDK default reaps pooled connections after 60 s idle anyway; keep what a benchmark warmed up
                .useIdleConnectionReaper(true);
        if (s.trustAll()) {
            return b.buildWithDefaults(AttributeMap.builder()
                    .put(SdkHttpConfigurationOption.TRUST_ALL_CERTIFICATES, Boolean.TRUE).build());
        }
        if (!s.caFile().isEmpty()) {
            TrustManager[] tms = KmsTls.trustManagers(s.caFile());
            b.tlsTrustManagersProvider(() -> tms);
        }
        return b.build();
    }
}
