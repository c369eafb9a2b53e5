package org.trustload.plans;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.trustload.labkit.pki.TestPki;

/**
 * The secrets a plan run used, and where they must not appear. Nothing is hard-coded, so later plans and lab
 * services are covered: the value of any property whose name says password, secret, passphrase, token, credential,
 * pin or key (not {@code key_id}) unless it is a path; every value of a {@code -q} credentials file
 * ({@link #addAllValues}); and the private-key material of the key files those properties name (PEM bodies, JSON
 * fields such as {@code PrivateKeyData}, PKCS#12/JKS private keys as base64 and hex, the stores' own base64).
 * A secret under 12 characters counts only where it stands alone ({@code password=example} is a leak of
 * {@code example}; {@code org.example.jmeter} is not). docs/distributed.md, "Secrets", says where runs are searched.
 */
final class Secrets {

    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(password|passwd|pwd|secret|passphrase|token|credential|\\bpin\\b|\\.pin$|(^|[._-])[a-z]*key$).*");
    private static final Pattern P_FUNCTION = Pattern.compile("\\$\\{__P\\(([^,()]+),([^()}]*)\\)\\}");
    private static final Pattern PEM_KEY = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----(.*?)-----END \\1PRIVATE KEY-----", Pattern.DOTALL);
    private static final Pattern JSON_SECRET = Pattern.compile(
            "\"([A-Za-z_]*(?i:private|secret|password)[A-Za-z_]*)\"\\s*:\\s*\"([^\"]{8,})\"");
    private static final int STRONG = 12;
    private static final int MAX_KEYS_PER_STORE = 50;

    /** Secret text to look for, with where it came from (for the failure message). */
    private final Map<String, String> needles = new LinkedHashMap<>();
    /**
     * Passwords to open key stores with. TestPki's fixed internal one is tried too (not searched for: it
     * is a word): the lab's cached test PKI ({@code pki.dir}) holds the users' keys under it.
     */
    private final Set<String> passwords = new LinkedHashSet<>(List.of(TestPki.PASSWORD));

    /**
     * Adds every secret-named property of {@code props} whose value is not an absolute path (a key file
     * is searched for its contents by {@link #addKeyFiles}); {@code source} names them in messages.
     */
    Secrets addProperties(Map<String, String> props, String source) {
        for (Map.Entry<String, String> e : props.entrySet()) {
            if (SECRET_NAME.matcher(e.getKey()).matches() && !e.getValue().isBlank() && !e.getValue().startsWith("/")) {
                passwords.add(e.getValue());
                add(e.getValue(), source + " " + e.getKey());
            }
        }
        return this;
    }

    /** Adds every value of {@code props}, whatever its name: the contents of a {@code -q} credentials file. */
    Secrets addAllValues(Map<String, String> props, String source) {
        for (Map.Entry<String, String> e : props.entrySet()) {
            if (!e.getValue().isBlank()) {
                passwords.add(e.getValue());
                add(e.getValue(), source + " " + e.getKey());
            }
        }
        return this;
    }

    /** Adds the secret-named {@code ${__P(name,default)}} defaults of a plan file. */
    Secrets addPlanDefaults(Path jmx) throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        Matcher m = P_FUNCTION.matcher(Files.readString(jmx));
        while (m.find()) {
            defaults.put(m.group(1).strip(), m.group(2).strip());
        }
        return addProperties(defaults, jmx.getFileName() + " default");
    }

    /** Adds the key material of every file (or files in a directory) that a value of {@code props} names. */
    Secrets addKeyFiles(Map<String, String> props, String source) throws IOException {
        for (Map.Entry<String, String> e : props.entrySet()) {
            String value = e.getValue();
            if (!value.startsWith("/")) {
                continue;
            }
            Path p = Path.of(value);
            if (Files.isDirectory(p)) {
                try (Stream<Path> files = Files.list(p)) {
                    for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                        addKeyFile(f, source + " " + e.getKey() + " " + f.getFileName());
                    }
                }
            } else if (Files.isRegularFile(p)) {
                addKeyFile(p, source + " " + e.getKey());
            }
        }
        return this;
    }

    private void addKeyFile(Path file, String source) throws IOException {
        if (Files.size(file) > 8 << 20) {
            return;
        }
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        Matcher pem = PEM_KEY.matcher(text);
        while (pem.find()) {
            for (String line : pem.group(2).split("\\R")) {
                if (line.length() >= 40 && !line.contains(":")) {
                    add(line.strip(), source + " (PEM private key)");
                }
            }
        }
        Matcher json = JSON_SECRET.matcher(text);
        while (json.find()) {
            add(json.group(2), source + " (JSON " + json.group(1) + ")");
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".p12") || name.endsWith(".pfx") || name.endsWith(".jks") || name.endsWith(".keystore")) {
            addStore(bytes, source);
        }
    }

    private void addStore(byte[] store, String source) {
        add(middle(Base64.getEncoder().encodeToString(store), 48), source + " (base64 of the key store file)");
        for (String type : List.of("PKCS12", "JKS")) {
            for (String password : passwords) {
                KeyStore ks;
                try (InputStream in = new java.io.ByteArrayInputStream(store)) {
                    ks = KeyStore.getInstance(type);
                    ks.load(in, password.toCharArray());
                } catch (Exception wrongTypeOrPassword) {
                    continue;
                }
                int n = 0;
                try {
                    for (String alias : Collections.list(ks.aliases())) {
                        if (n++ >= MAX_KEYS_PER_STORE) {
                            break;
                        }
                        Key key = ks.getKey(alias, password.toCharArray());
                        if (key instanceof PrivateKey pk && pk.getEncoded() != null) {
                            byte[] der = pk.getEncoded();
                            // The PKCS#8 header is the same for every key of a type: take the middle.
                            add(middle(Base64.getEncoder().encodeToString(der), 32),
                                    source + " key " + alias + " (base64)");
                            add(middle(HexFormat.of().formatHex(der), 32), source + " key " + alias + " (hex)");
                        }
                    }
                } catch (Exception unreadableEntry) {
                    // an entry of another kind (SM2 with the JDK loader): the file's base64 still counts
                }
                return;
            }
        }
    }

    private static String middle(String s, int length) {
        if (s.length() <= length) {
            return s;
        }
        int from = (s.length() - length) / 2;
        return s.substring(from, from + length);
    }

    private void add(String secret, String source) {
        if (secret.length() >= 4) {
            needles.putIfAbsent(secret, source);
        }
    }

    /** How many distinct secrets are looked for. */
    int size() {
        return needles.size();
    }

    /** Every leak under {@code dir} (text files, recursively, minus {@code exclude}): "file: source". */
    List<String> findIn(Path dir, Set<Path> exclude) throws IOException {
        List<String> leaks = new ArrayList<>();
        Map<String, Pattern> weak = new LinkedHashMap<>();
        for (String s : needles.keySet()) {
            if (s.length() < STRONG) {
                weak.put(s, Pattern.compile("(?<![A-Za-z0-9._/@-])" + Pattern.quote(s) + "(?![A-Za-z0-9._/@-])"));
            }
        }
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).filter(f -> !exclude.contains(f)).sorted().toList();
        }
        for (Path f : files) {
            String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            for (Map.Entry<String, String> n : needles.entrySet()) {
                Pattern p = weak.get(n.getKey());
                boolean found = p == null ? text.contains(n.getKey()) : p.matcher(text).find();
                if (found) {
                    leaks.add(dir.relativize(f) + ": " + n.getValue());
                }
            }
        }
        return leaks;
    }

    /** Loads a properties file as a map (empty when the file does not exist). */
    static Map<String, String> read(Path file) throws IOException {
        Map<String, String> map = new LinkedHashMap<>();
        if (Files.exists(file)) {
            Properties p = Plans.load(file);
            for (String k : p.stringPropertyNames()) {
                map.put(k, p.getProperty(k));
            }
        }
        return map;
    }
}
