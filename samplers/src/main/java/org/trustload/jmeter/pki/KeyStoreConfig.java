package org.trustload.jmeter.pki;

import org.apache.jmeter.config.ConfigElement;
import org.apache.jmeter.engine.event.LoopIterationEvent;
import org.apache.jmeter.engine.event.LoopIterationListener;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.trustload.common.ClientException;
import org.trustload.jmeter.common.FailFast;
import org.trustload.jmeter.common.PropertyParser;
import org.trustload.pki.KeyMaterial;
import org.trustload.pki.KeySource;
import org.trustload.pki.PkiException;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Key Store Config (TrustLoad): loads signing keys once per test — from PKCS#12, JKS, PEM or a
 * PKCS#11 token — and hands them to the PKI samplers of the test as a pool: one key for everyone,
 * one per thread, or the next one at every iteration (many distinct users from several CAs, as real
 * traffic has). Keys never appear in results or logs.
 */
public class KeyStoreConfig extends AbstractTestElement implements ConfigElement, TestBean, TestStateListener,
        LoopIterationListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(KeyStoreConfig.class);

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

    @Override
    public void testStarted() {
        String name = pool();
        String element = PropertyParser.describe("Key Store Config", getName());
        try {
            java.util.Set<String> excluded = new java.util.HashSet<>(split(excludeAliases));
            List<KeyMaterial> keys = source(new PropertyParser(element)).load().stream().filter(k -> !excluded.contains(k.alias()))
                    .collect(Collectors.toList());
            if (keys.isEmpty()) {
                throw new PkiException(PkiException.KEY_ERROR, "no key entries in " + keyStoreFile);
            }
            KeyPools.register(name, keys);
            log.info("Key Store Config '{}': pool '{}' has {} keys ({})", getName(), name, keys.size(), assignment);
        } catch (PkiException e) {
            // Fail fast (DESIGN §2): one line naming element, property and file, and the test stops before
            // its first sample instead of writing one "no key pool" failure per iteration.
            boolean token = "pkcs11".equalsIgnoreCase(sourceType == null ? "" : sourceType.trim());
            // a wrong password is fixed in another field than a wrong file: name the field the user must change
            boolean password = String.valueOf(e.getMessage()).contains("password");
            String property = password ? "keyStorePassword" : token ? "pkcs11Config" : "keyStoreFile";
            String file = token ? pkcs11Config : keyStoreFile;
            ClientException named = new PropertyParser(element).error(property, file == null ? "" : file.trim(),
                    e.getMessage(), e.getCause());
            failed(name, element, named);
        } catch (ClientException e) {
            failed(name, element, e); // a missing, unreadable or empty file, named by the property parser
        }
    }

    private static void failed(String pool, String element, ClientException e) {
        KeyPools.failed(pool, e);
        FailFast.report(element, e);
        FailFast.stopTest();
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    @Override
    public void testEnded() {
        KeyPools.remove(pool());
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    @Override
    public void iterationStart(LoopIterationEvent event) {
        KeyPools.Pool pool = KeyPools.pool(pool());
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        if (pool == null || vars == null) {
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
        vars.putObject(KeyPools.KEY_OBJECT_PREFIX + pool(), key);
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

    private String pool() {
        return poolName == null || poolName.isBlank() ? "default" : poolName.trim();
    }

    @Override
    public void addConfigElement(ConfigElement config) {
        // nothing to merge: the pool is shared through KeyPools
    }

    @Override
    public boolean expectsModification() {
        return false;
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
