package org.trustload.lab;

import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.util.ssl.cert.ManageCertificates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed server certificate for 127.0.0.1/localhost made at start-up, with the files clients
 * need to trust it: a PKCS12 trust store holding only that certificate, and the same certificate in
 * PEM for OpenSSL-based clients (ldap-utils, Perl).
 *
 * <p>Generated with the UnboundID SDK's {@link ManageCertificates} tool (no BouncyCastle): a lab
 * key is throw-away, so a fresh one per start avoids shipping a private key.
 */
public final class SelfSignedTls {
    private static final String ALIAS = "server-cert";

    private final Path keyStore;
    private final Path trustStore;
    private final Path pem;
    private final String password;
    private final SSLContext serverContext;

    private SelfSignedTls(Path keyStore, Path trustStore, Path pem, String password, SSLContext serverContext) {
        this.keyStore = keyStore;
        this.trustStore = trustStore;
        this.pem = pem;
        this.password = password;
        this.serverContext = serverContext;
    }

    /**
     * Generates an RSA-2048 certificate with SAN IP 127.0.0.1 and DNS localhost.
     *
     * @param dir where to write {@code <prefix>-keystore.p12}, {@code <prefix>-truststore.p12} and
     *     {@code <prefix>-cert.pem}
     * @param prefix file name prefix, e.g. the service name
     * @param password password of both stores (a lab value, written to lab.properties)
     */
    public static SelfSignedTls generate(Path dir, String prefix, String password)
            throws IOException, GeneralSecurityException {
        return generate(dir, prefix, password, LabContext.HOST);
    }

    /**
     * As {@link #generate(Path, String, String)}, the certificate also naming {@code host} (the lab's {@code --bind}).
     */
    public static SelfSignedTls generate(Path dir, String prefix, String password, String host)
            throws IOException, GeneralSecurityException {
        Path keyStore = dir.resolve(prefix + "-keystore.p12");
        Path trustStore = dir.resolve(prefix + "-truststore.p12");
        Path pem = dir.resolve(prefix + "-cert.pem");
        // The tool refuses to add an alias that exists: start from a clean file each time.
        Files.deleteIfExists(keyStore);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ResultCode rc = ManageCertificates.main(InputStream.nullInputStream(), log, log,
                "generate-self-signed-certificate",
                "--keystore", keyStore.toString(),
                "--keystore-password", password,
                "--keystore-type", "PKCS12",
                "--alias", ALIAS,
                "--subject-dn", "CN=localhost,O=TrustLoad lab",
                "--days-valid", "365",
                "--key-algorithm", "RSA",
                "--key-size-bits", "2048",
                "--signature-algorithm", "SHA256withRSA",
                "--subject-alternative-name-dns", "localhost",
                "--subject-alternative-name-ip-address", "127.0.0.1",
                "--subject-alternative-name-ip-address", host,
                // GnuTLS clients (Debian's ldap-utils) reject a self-signed trust anchor that is not a CA
                "--basic-constraints-is-ca", "true",
                "--key-usage", "digital-signature",
                "--key-usage", "key-encipherment",
                "--key-usage", "key-cert-sign",
                "--extended-key-usage", "server-auth");
        if (rc != ResultCode.SUCCESS) {
            throw new IOException("cannot generate the lab certificate (" + rc + "): "
                    + log.toString(StandardCharsets.UTF_8).trim());
        }
        char[] pin = password.toCharArray();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            ks.load(in, pin);
        }
        Certificate cert = ks.getCertificate(ALIAS);

        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        ts.setCertificateEntry("trustload-lab", cert);
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            ts.store(out, pin);
        }
        try (Writer w = Files.newBufferedWriter(pem, StandardCharsets.US_ASCII)) {
            w.write("-----BEGIN CERTIFICATE-----\n");
            w.write(Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(cert.getEncoded()));
            w.write("\n-----END CERTIFICATE-----\n");
        }

        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, pin);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return new SelfSignedTls(keyStore, trustStore, pem, password, ctx);
    }

    /** A server-side TLS context presenting the certificate. */
    public SSLContext serverContext() {
        return serverContext;
    }

    /** The PKCS12 trust store holding only the certificate. */
    public Path trustStore() {
        return trustStore;
    }

    /** The certificate in PEM, for OpenSSL-based clients ({@code LDAPTLS_CACERT}, {@code cafile}). */
    public Path pem() {
        return pem;
    }

    /** Password of the key store and the trust store. */
    public String password() {
        return password;
    }

    /** Removes the generated files. */
    public void delete() {
        for (Path p : new Path[] {keyStore, trustStore, pem}) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                System.err.println("trustload-lab: cannot remove " + p + ": " + e);
            }
        }
    }
}
