package org.trustload.jmeter.pki;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.jmeter.engine.event.LoopIterationEvent;
import org.apache.jmeter.engine.event.LoopIterationListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.jmeter.common.SharedConfig;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.PkiException;

/**
 * Key Store Config (TrustLoad): loads signing keys once per test — from PKCS#12, JKS, PEM or a
 * PKCS#11 token — and hands them to the PKI samplers of the test as a pool: one key for everyone,
 * one per thread, or the next one at every iteration (many distinct users from several CAs, as real
 * traffic has). The pool is this config's shared object ({@link SharedConfig}), found by its
 * {@code poolName}; each thread gets its current key through a thread variable set at every iteration.
 * Keys never appear in results or logs.
 */
public class KeyStoreConfig extends SharedConfig<KeyStoreConfig.Pool> implements LoopIterationListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(KeyStoreConfig.class);

    /** What users see in menus and messages. */
    static final String KIND = "Key Store Config";
    /** Thread-variable (object) prefix under which the current key of a pool is kept. */
    static final String KEY_OBJECT_PREFIX = "trustload.key.";

    public static final String ASSIGN_FIRST = "first";
    public static final String ASSIGN_PER_THREAD = "per-thread";
    public static final String ASSIGN_PER_ITERATION = "per-iteration";

    private String poolName = "default";
    private String sourceType = "pkcs12";
    private String keyStoreFile = "";
    private String keyStorePassword = "";
    private String aliases = "";
    private String excludeAliases = "";
    private String certificateFile = "";
    private String pkcs11Config = "";
    private String assignment = ASSIGN_PER_THREAD;
    private String aliasVariable = "keyAlias";

    private transient KeyMaterial threadKey;

    public KeyStoreConfig() {
        super(KIND, Pool.class);
    }

    /** A loaded pool and its hand-out counter; the keys need no closing, the pool is let go at test end. */
    static final class Pool implements AutoCloseable {
        final List<KeyMaterial> keys;
        final AtomicInteger next = new AtomicInteger();

        Pool(List<KeyMaterial> keys) {
            this.keys = List.copyOf(keys);
        }

        /** Round robin over the pool, safe from any thread. */
        KeyMaterial take() {
            return keys.get(Math.floorMod(next.getAndIncrement(), keys.size()));
        }

        @Override
        public void close() {
        }
    }

    /**
     * The key this thread uses now: the one its Key Store Config assigned for this iteration, or (no
     * iteration event seen yet) the next one of the pool. A pool that failed to load repeats its config's
     * error.
     */
    public static KeyMaterial currentKey(String poolName) throws ClientException {
        String name = poolName == null || poolName.isBlank() ? "default" : poolName.trim();
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (vars != null && vars.getObject(KEY_OBJECT_PREFIX + name) instanceof KeyMaterial k) {
            return k;
        }
        Pool pool = published(Pool.class, name);
        if (pool == null) {
            throw new PkiException(PkiException.CONFIG_ERROR, "no key pool '" + name
                    + "': add a Key Store Config with this pool name");
        }
        return pool.take();
    }

    @Override
    protected String sharedName() {
        return poolName == null || poolName.isBlank() ? "default" : poolName.trim();
    }

    @Override
    protected String nameProperty() {
        return "poolName";
    }

    /** Plans may give each thread group a Key Store Config of one pool: the last one loaded serves them all. */
    @Override
    protected boolean namesakesAllowed() {
        return true;
    }

    @Override
    protected Pool build(PropertyParser p) throws ClientException {
        try {
            Set<String> excluded = new HashSet<>(split(excludeAliases));
            List<KeyMaterial> keys = source(p).load().stream().filter(k -> !excluded.contains(k.alias()))
                    .collect(Collectors.toList());
            if (keys.isEmpty()) {
                throw new PkiException(PkiException.KEY_ERROR, "no key entries in " + keyStoreFile);
            }
            log.info("Key Store Config '{}': pool '{}' has {} keys ({})", getName(), sharedName(), keys.size(),
                    assignment);
            return new Pool(keys);
        } catch (PkiException e) {
            // a wrong password is fixed in another field than a wrong file: name the field the user must change
            boolean token = "pkcs11".equalsIgnoreCase(sourceType == null ? "" : sourceType.trim());
            boolean password = String.valueOf(e.getMessage()).contains("password");
            String property = password ? "keyStorePassword" : token ? "pkcs11Config" : "keyStoreFile";
            String file = token ? pkcs11Config : keyStoreFile;
            throw p.error(property, file == null ? "" : file.trim(), e.getMessage(), e.getCause());
        }
    }

    @Override
    public void iterationStart(LoopIterationEvent event) {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        Pool pool;
        try {
            pool = vars == null ? null : published(Pool.class, sharedName());
        } catch (ClientException e) {
            return; // the pool failed to load: the test stops, the samplers repeat the config's error
        }
        if (pool == null) {
            return;
        }
        KeyMaterial key;
        switch (assignment == null ? "" : assignment.trim().toLowerCase(Locale.ROOT)) {
            case ASSIGN_FIRST:
                key = pool.keys.get(0);
                break;
            case ASSIGN_PER_ITERATION:
                key = pool.take();
                break;
            default:
                if (threadKey == null) {
                    threadKey = pool.take();
                }
                key = threadKey;
        }
        vars.putObject(KEY_OBJECT_PREFIX + sharedName(), key);
        if (aliasVariable != null && !aliasVariable.isBlank()) {
            vars.put(aliasVariable.trim(), key.alias());
        }
    }

    /** The key source, its files checked (and resolved from the plan's directory) by {@code p}. */
    KeySource source(PropertyParser p) throws ClientException {
        char[] password = keyStorePassword == null ? new char[0] : keyStorePassword.toCharArray();
        List<String> list = split(aliases);
        switch (p.oneOf("sourceType", sourceType, null, "pkcs12", "jks", "pem", "pkcs11")) {
            case "pkcs12":
                return KeySource.pkcs12(path(p, "keyStoreFile", keyStoreFile), password, list);
            case "jks":
                return KeySource.jks(path(p, "keyStoreFile", keyStoreFile), password, list);
            case "pem":
                return KeySource.pem(path(p, "keyStoreFile", keyStoreFile), path(p, "certificateFile", certificateFile),
                        password, null);
            default:
                return KeySource.pkcs11(path(p, "pkcs11Config", pkcs11Config), password, list);
        }
    }

    private static List<String> split(String list) {
        return list == null || list.isBlank() ? List.of()
                : Arrays.stream(list.split("[,\\s]+")).filter(s -> !s.isEmpty()).collect(Collectors.toList());
    }

    private static Path path(PropertyParser p, String property, String value) throws ClientException {
        return p.file(property, value, true).toPath();
    }

    @Override
    public Object clone() {
        KeyStoreConfig c = (KeyStoreConfig) super.clone();
        c.threadKey = null;
        return c;
    }

    public String getPoolName() {
        return poolName;
    }

    public void setPoolName(String poolName) {
        this.poolName = poolName;
    }

    public String getSourceType() {
        return sourceType;
    }

    public void setSourceType(String sourceType) {
        this.sourceType = sourceType;
    }

    public String getKeyStoreFile() {
        return keyStoreFile;
    }

    public void setKeyStoreFile(String keyStoreFile) {
        this.keyStoreFile = keyStoreFile;
    }

    public String getKeyStorePassword() {
        return keyStorePassword;
    }

    public void setKeyStorePassword(String keyStorePassword) {
        this.keyStorePassword = keyStorePassword;
    }

    public String getAliases() {
        return aliases;
    }

    public void setAliases(String aliases) {
        this.aliases = aliases;
    }

    public String getExcludeAliases() {
        return excludeAliases;
    }

    public void setExcludeAliases(String excludeAliases) {
        this.excludeAliases = excludeAliases;
    }

    public String getCertificateFile() {
        return certificateFile;
    }

    public void setCertificateFile(String certificateFile) {
        this.certificateFile = certificateFile;
    }

    public String getPkcs11Config() {
        return pkcs11Config;
    }

    public void setPkcs11Config(String pkcs11Config) {
        this.pkcs11Config = pkcs11Config;
    }

    public String getAssignment() {
        return assignment;
    }

    public void setAssignment(String assignment) {
        this.assignment = assignment;
    }

    public String getAliasVariable() {
        return aliasVariable;
    }

    public void setAliasVariable(String aliasVariable) {
        this.aliasVariable = aliasVariable;
    }
}
