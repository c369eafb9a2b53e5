package org.trustload.plans;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.trustload.harness.Lab;

/**
 * {@code ./trustload run PLAN --engines 2 -q CREDS -J...password=...}, as a user runs it: no credential
 * of the run may appear in any file under its results folder (results.jtl, report/, the controller's
 * jmeter.log, each engine's log and console, the launcher's console). The credentials are the real ones
 * of this run: every value of the {@code -q} file, the password given with {@code -J}, and the lab's
 * secret-named properties and key material, read from the run's lab.properties while the lab is up (its
 * path is on the launcher's READY line; the file is outside the results and gone when the lab stops).
 *
 * <p>CI budget: ~70 s (73 s in a fresh-clone run at load ~25): the launcher as a user starts it, a lab and two
 * local engines; a shorter form would not write the engines' own logs and consoles the check reads.
 */
class DistributedSecretsIT {

    private static final Path OUT = Plans.DIR.resolve("target/distributed-secrets");
    private static final String PLAN = "ldap/ldap-search-200x10";

    @Test
    void aTwoEngineRunWithACredentialsFileLeavesNoCredentialInItsResults() throws Exception {
        if (Files.exists(OUT)) {
            try (Stream<Path> s = Files.walk(OUT)) {
                for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
        Path results = Files.createDirectories(OUT.resolve("results"));
        SecureRandom random = new SecureRandom();
        Map<String, String> creds = new LinkedHashMap<>();
        creds.put("secrets.it.password", "pw" + hex(random));
        creds.put("secrets.it.api.token", "tk" + hex(random));
        creds.put("secrets.it.note", "nt" + hex(random));
        Path credsFile = OUT.resolve("creds.properties");
        Properties p = new Properties();
        p.putAll(creds);
        try (var w = Files.newBufferedWriter(credsFile)) {
            p.store(w, "credentials of DistributedSecretsIT (random per run)");
        }
        String cliPassword = "cl" + hex(random);

        List<String> cmd = new ArrayList<>(List.of(Plans.ROOT.resolve("trustload").toString(), "run", PLAN,
                "--engines", "2", "-q", credsFile.toString(), "-Jsecrets.it.cli.password=" + cliPassword,
                "-Jthreads=2", "-Jloops=3", "-Jrampup=0", "-Jduration=120"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(OUT.toFile()).redirectErrorStream(true)
                .redirectOutput(results.resolve("console.txt").toFile());
        pb.environment().put("TRUSTLOAD_RESULTS", results.toString());
        pb.environment().put("HEAP", "-Xms256m -Xmx512m");
        Process run = pb.start();

        Secrets secrets = new Secrets().addAllValues(creds, "-q creds.properties")
                .addAllValues(Map.of("secrets.it.cli.password", cliPassword), "-J");
        Map<String, String> lab = null;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (run.isAlive() && System.nanoTime() < deadline) {
            if (lab == null) {
                // the launcher keeps lab.properties in a private temporary directory, never under the results,
                // and prints the lab's READY line with its path
                Optional<Path> labProperties = labPropertiesOfReadyLine(results.resolve("console.txt"));
                if (labProperties.isPresent()) {
                    // written by rename once every service is up: complete when seen; read the key files now,
                    // the lab deletes them when it stops
                    lab = Secrets.read(labProperties.get());
                    secrets.addProperties(lab, "lab.properties").addKeyFiles(lab, "lab.properties");
                }
            }
            run.waitFor(200, TimeUnit.MILLISECONDS);
        }
        if (run.isAlive()) {
            run.descendants().forEach(ProcessHandle::destroy);
            run.destroyForcibly();
            throw new AssertionError("./trustload did not finish in 10 minutes, see " + OUT);
        }
        String console = Files.readString(results.resolve("console.txt"));
        assertThat(run.exitValue()).as("./trustload exit status, output:\n" + console).isZero();
        assertThat(find(results, "lab.properties")).as("lab.properties (lab passwords) under the results").isEmpty();
        assertThat(lab).as("the run's lab.properties (READY line of " + results.resolve("console.txt")
                + ") was never seen").isNotNull()
                .containsKeys("ldap.admin.password", "ldap.user.password", "ldap.truststore.password");

        Path dir = find(results, "jmeter.log").orElseThrow().getParent();
        List<String> rows = Files.readAllLines(dir.resolve("results.jtl"));
        assertThat(rows).as("header + 2 engines x 2 threads x 3 loops").hasSize(1 + 12);
        List<Path> engineLogs;
        try (Stream<Path> s = Files.walk(dir)) {
            engineLogs = s.filter(f -> f.getFileName().toString().equals("jmeter-server.log")).toList();
        }
        assertThat(engineLogs).as("engine logs under " + dir).hasSize(2);

        assertThat(secrets.size()).as("credentials looked for").isGreaterThanOrEqualTo(creds.size() + 1 + 3);
        assertThat(secrets.findIn(results, Set.of())).as("credentials found under " + results).isEmpty();
        // the lines that carried the values are still there, redacted (dist/src/main/jmeter/bin/log4j2.xml)
        assertThat(Files.readString(dir.resolve("jmeter.log")))
                .contains("Sending properties <values not logged>")
                .contains("Setting JMeter property: secrets.it.cli.password=<redacted>");
    }

    private static String hex(SecureRandom random) {
        byte[] b = new byte[12];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** {@link #find} while the run creates and deletes files: a file gone during the walk means "not yet". */
    private static Optional<Path> labPropertiesOfReadyLine(Path console) throws IOException {
        if (!Files.exists(console)) {
            return Optional.empty();
        }
        return Files.readAllLines(console).stream().filter(l -> l.contains(Lab.READY + " ")).findFirst()
                .map(l -> Path.of(l.substring(l.indexOf(Lab.READY) + Lab.READY.length()).strip()))
                .filter(Files::exists);
    }

    private static Optional<Path> find(Path dir, String name) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(f -> f.getFileName().toString().equals(name)).findFirst();
        }
    }
}
