package org.trustload.testing.pki;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.KeyStores;
import org.trustload.pki.PkiException;

/**
 * The PKCS#11 half of {@link SoftHsmIT}, run in its own JVM: SoftHSM reads {@code SOFTHSM2_CONF}
 * from the environment of the process that loads it, and a running JVM cannot change its own
 * environment. Prints one {@code RESULT …} line per check; exits non-zero on any failure.
 *
 * <p>Arguments: config file, PIN, threads, signatures per thread, aliases…
 */
public final class SoftHsmChild {

    private SoftHsmChild() {
    }

    public static void main(String[] args) throws Exception {
        Path config = Path.of(args[0]);
        char[] pin = args[1].toCharArray();
        int threads = Integer.parseInt(args[2]);
        int perThread = Integer.parseInt(args[3]);
        List<String> aliases = Arrays.asList(args).subList(4, args.length);

        // a wrong PIN first, while the token is not yet logged in
        try {
            KeySource.pkcs11(config, "999999".toCharArray(), aliases).load();
            System.out.println("RESULT wrongPin=accepted");
        } catch (PkiException e) {
            System.out.println("RESULT wrongPin=" + e.category() + ":" + e.getMessage());
        }
        List<KeyMaterial> keys = KeySource.pkcs11(config, pin, aliases).load();
        System.out.println("RESULT sameProvider="
                + (KeyStores.pkcs11Provider(config) == KeyStores.pkcs11Provider(config)
                && keys.get(0).provider() == KeyStores.pkcs11Provider(config)));
        try {
            KeySource.pkcs11(config, pin, List.of("nobody")).load();
        } catch (PkiException e) {
            System.out.println("RESULT missingAlias=" + e.category() + ":" + e.getMessage());
        }
        System.out.println("RESULT all=" + KeySource.pkcs11(config, pin, List.of()).load().size());
        for (KeyMaterial k : keys) {
            String alg = k.signatureAlgorithm("SHA-256");
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Integer>> results = new ArrayList<>();
            java.util.concurrent.atomic.AtomicLong signNanos = new java.util.concurrent.atomic.AtomicLong();
            long t0 = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    int ok = 0;
                    Signature verifier = Signature.getInstance(alg);
                    verifier.initVerify(k.certificate().getPublicKey());
                    for (int i = 0; i < perThread; i++) {
                        byte[] data = ("thread " + thread + " signature " + i).getBytes(StandardCharsets.UTF_8);
                        long s0 = System.nanoTime();
                        byte[] sig = k.sign(alg, data);
                        signNanos.addAndGet(System.nanoTime() - s0);
                        verifier.update(data);
                        if (verifier.verify(sig)) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            int verified = 0;
            int errors = 0;
            for (Future<Integer> f : results) {
                try {
                    verified += f.get();
                } catch (Exception e) {
                    errors++;
                    e.printStackTrace();
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            pool.shutdown();
            // wall time covers signing on the token and verifying in the JVM; signMs is the token call alone
            System.out.printf("RESULT key=%s alg=%s chain=%d verified=%d errors=%d threads=%d wallMs=%d "
                            + "signPlusVerifyPerSecond=%.0f signMsPerOp=%.2f%n", k.alias(), k.keyAlgorithm(),
                    k.chain().size(), verified, errors, threads, ms, verified * 1000.0 / Math.max(ms, 1),
                    signNanos.get() / 1e6 / Math.max(verified, 1));
        }
    }
}
