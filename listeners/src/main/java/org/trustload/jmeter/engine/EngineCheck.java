package org.trustload.jmeter.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.trustload.common.Sha256;
import org.trustload.common.Version;

/**
 * The preflight of {@code ./trustload run|size --remote} (docs/distributed.md, step 4), run once on every engine
 * through JMeter's distributed mode before the test and once after it ({@code tidy}). What to do arrives as
 * {@code -G} properties; the answer is one sample per engine: versions and CPUs in its message, one sub-result
 * per data file ({@code same}, {@code present}, {@code shipped} succeed; {@code missing}, {@code differs},
 * {@code unreadable}, {@code unwritable} fail; {@code removed} when tidying). Paths and verdicts only, never
 * contents. No GUI: users never add it.
 */
public class EngineCheck extends AbstractSampler {

    private static final long serialVersionUID = 1L;

    /** The sample's label. */
    public static final String LABEL = "TrustLoad engine check";
    /** {@code check} (default) or {@code tidy}. */
    public static final String MODE = "trustload.check.mode";
    /** An id of the controller's run: tidy removes what the check of the same id shipped. */
    public static final String RUN = "trustload.check.run";
    /** How many data files follow. */
    public static final String FILES = "trustload.check.files";
    /**
     * Prefix of each file's properties, numbered from 0: {@code .path} (absolute), {@code .sha256} (hex, empty
     * when the controller has no copy), {@code .data} (base64 of the controller's copy; absent: check only).
     */
    public static final String FILE = "trustload.check.file.";

    /** What this JVM shipped, by run id: files, and the folders it created for them (outermost first). */
    private static final Map<String, Shipped> SHIPPED = new ConcurrentHashMap<>();
    private static final AtomicBoolean HOOK = new AtomicBoolean();

    private record Shipped(List<Path> files, List<Path> dirs) {
    }

    @Override
    public SampleResult sample(Entry e) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(LABEL);
        r.sampleStart();
        String run = JMeterUtils.getPropDefault(RUN, "");
        List<SampleResult> items = "tidy".equals(JMeterUtils.getPropDefault(MODE, "check")) ? tidy(run) : check(run);
        r.sampleEnd();
        boolean ok = items.stream().allMatch(SampleResult::isSuccessful);
        r.setSuccessful(ok);
        r.setResponseCode(ok ? "200" : "500");
        r.setResponseMessage(identity());
        for (SampleResult item : items) {
            r.addRawSubResult(item);
        }
        return r;
    }

    /** What the engine runs: {@code jmeter=… trustload=… java=… cpus=…} (no blanks inside a value). */
    static String identity() {
        return "jmeter=" + JMeterUtils.getJMeterVersion() + " trustload=" + Version.current().orElse("unknown")
                + " java=" + System.getProperty("java.version", "unknown").replace(' ', '_')
                + " cpus=" + Runtime.getRuntime().availableProcessors();
    }

    private static List<SampleResult> check(String run) {
        List<SampleResult> out = new ArrayList<>();
        int n = JMeterUtils.getPropDefault(FILES, 0);
        for (int i = 0; i < n; i++) {
            String path = JMeterUtils.getPropDefault(FILE + i + ".path", "");
            String sha = JMeterUtils.getPropDefault(FILE + i + ".sha256", "");
            String data = JMeterUtils.getProperty(FILE + i + ".data");
            out.add(checkOne(run, path, sha, data));
            // the content served its purpose: no need to keep it in this JVM's properties until the next run
            JMeterUtils.getJMeterProperties().remove(FILE + i + ".data");
        }
        return out;
    }

    static SampleResult checkOne(String run, String path, String sha, String data) {
        Path p = Path.of(path);
        if (!p.isAbsolute()) {
            return item(false, "unreadable " + path + ": not an absolute path");
        }
        try {
            if (Files.exists(p)) {
                if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
                    return item(false, "unreadable " + path + ": not a readable file");
                }
                if (sha.isEmpty()) {
                    return item(true, "present " + path);
                }
                String have = Sha256.ofFile(p);
                if (have.equals(sha)) {
                    return item(true, "same " + path);
                }
                if (data == null || !shippedBefore(p)) {
                    return item(false, "differs " + path + ": sha256 " + have.substring(0, 16) + "... here, "
                            + sha.substring(0, Math.min(16, sha.length()))
                            + "... on the controller (never overwritten)");
                }
                // a copy this engine shipped for an earlier run that was not tidied up (its controller died): ours to
                // replace
            }
            if (data == null) {
                return item(false, "missing " + path);
            }
            byte[] bytes = Base64.getDecoder().decode(data);
            if (!Sha256.of(bytes).equals(sha)) {
                return item(false, "unwritable " + path + ": the content received does not match its sha256");
            }
            ship(run, p, bytes);
            return item(true, "shipped " + path);
        } catch (IOException | RuntimeException e) {
            return item(false, (Files.exists(p) ? "unreadable " : "unwritable ") + path + ": " + e);
        }
    }

    /** Whether this JVM wrote {@code p} for any run still on record. */
    private static boolean shippedBefore(Path p) {
        return SHIPPED.values().stream().anyMatch(s -> {
            synchronized (s) {
                return s.files().contains(p);
            }
        });
    }

    private static void ship(String run, Path p, byte[] bytes) throws IOException {
        Shipped s = SHIPPED.computeIfAbsent(run, k -> new Shipped(new ArrayList<>(), new ArrayList<>()));
        if (HOOK.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> SHIPPED.keySet().forEach(EngineCheck::tidy),
                    "trustload-engine-check-tidy"));
        }
        Deque<Path> missing = new ArrayDeque<>();
        for (Path d = p.getParent(); d != null && !Files.exists(d); d = d.getParent()) {
            missing.push(d);
        }
        for (Path d : missing) {
            Files.createDirectory(d, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            synchronized (s) {
                s.dirs().add(d);
            }
        }
        Path tmp = Files.createTempFile(p.getParent(), ".trustload-", ".part",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        synchronized (s) {
            if (!s.files().contains(p)) {
                s.files().add(p);
            }
        }
    }

    /** Removes what the check of {@code run} shipped: its files, then the folders it made when empty. */
    static List<SampleResult> tidy(String run) {
        List<SampleResult> out = new ArrayList<>();
        Shipped s = SHIPPED.remove(run);
        if (s == null) {
            return out;
        }
        synchronized (s) {
            for (Path f : s.files()) {
                try {
                    Files.deleteIfExists(f);
                    out.add(item(true, "removed " + f));
                } catch (IOException e) {
                    out.add(item(false, "unwritable " + f + ": cannot remove it: " + e));
                }
            }
            for (int i = s.dirs().size() - 1; i >= 0; i--) {
                try {
                    Files.deleteIfExists(s.dirs().get(i));
                } catch (IOException notEmpty) {
                    // something else lives there now: leave it
                }
            }
        }
        return out;
    }

    private static SampleResult item(boolean ok, String message) {
        SampleResult r = new SampleResult();
        r.setSampleLabel(LABEL + " " + message.substring(0, message.indexOf(' ')).toLowerCase(Locale.ROOT));
        r.setSuccessful(ok);
        r.setResponseCode(ok ? "200" : "500");
        r.setResponseMessage(message);
        r.setStampAndTime(System.currentTimeMillis(), 0);
        return r;
    }
}
