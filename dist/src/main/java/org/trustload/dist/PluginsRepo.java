package org.trustload.dist;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.jmeter.testbeans.TestBean;

/**
 * Writes the jmeter-plugins-manager repository for TrustLoad from the drop-in folder: {@code
 * trustload-plugins.json} beside the jars it names, three plugins because the manager puts one jar per plugin
 * into {@code lib/ext} and the rest into {@code lib/} (docs/install.md, "jmeter-plugins-manager"). Usage:
 * {@code PluginsRepo DROPIN_DIR OUT_DIR BASE_URL PROJECT_URL SETUP_JAR}; an empty base URL gives download URLs
 * relative to the descriptor.
 */
public final class PluginsRepo {

    /** The manager's rule for a version in a jar file name (Plugin.getVersionFromPath in 1.3). */
    static final Pattern JAR_VERSION = Pattern.compile("-([.0-9]+(-\\w+)?)\\.jar$");
    /** Where the help and screenshot links point unless the build says otherwise (plugins.repo.projectUrl). */
    static final String DEFAULT_PROJECT_URL = "https://github.com/trustload/trustload";
    static final Pattern LIB_NAME = Pattern.compile("(.+?)-[0-9]+\\..*\\.jar");
    static final String DESCRIPTOR = "trustload-plugins.json";
    /** The plugin whose installer writes what the manager cannot install (bin/ files). */
    static final String SETUP_ID = "trustload-setup";
    static final String SETUP_CLASS = "org.trustload.dist.setup.JMeterHomeSetup";

    private PluginsRepo() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: PluginsRepo DROPIN_DIR OUT_DIR BASE_URL PROJECT_URL SETUP_JAR");
        }
        Path out = write(Path.of(args[0]), Path.of(args[1]), args[2], args[3].isBlank() ? DEFAULT_PROJECT_URL : args[3],
                Path.of(args[4]));
        System.out.println("jmeter-plugins-manager repository: " + out);
    }

    /** Copies the drop-in's jars into {@code out} and writes the descriptor there; returns its path. */
    static Path write(Path dropin, Path out, String baseUrl, String projectUrl, Path setup) throws IOException {
        Files.createDirectories(out);
        Path samplers = only(dropin.resolve("lib/ext"), "trustload-samplers-");
        Path listeners = only(dropin.resolve("lib/ext"), "trustload-listeners-");
        Map<String, String> libs = new TreeMap<>();
        try (Stream<Path> s = Files.list(dropin.resolve("lib"))) {
            for (Path jar : s.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                libs.put(libName(jar.getFileName().toString()), url(baseUrl, jar));
                Files.copy(jar, out.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        for (Path jar : List.of(samplers, listeners, setup)) {
            Files.copy(jar, out.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        List<Map<String, Object>> plugins = List.of(
                plugin("trustload", "TrustLoad",
                        "Samplers, config elements, pre-processors and assertions for load-testing"
                        + " trust infrastructure:"
                                + " LDAP (ldap, ldaps, StartTLS, ldapi), CAdES/PAdES signatures, RFC 3161 timestamps,"
                                + " certificate login, and more.",
                        "org.trustload.jmeter.common.BeanInfoHelper", samplers, baseUrl, projectUrl, libs,
                        List.of(SETUP_ID)),
                plugin("trustload-listeners", "TrustLoad Listeners",
                        "TrustLoad listeners (JVM GC/CPU statistics).",
                        "org.trustload.jmeter.jvmstats.JvmStats", listeners, baseUrl, projectUrl, Map.of(),
                        List.of("trustload")),
                plugin(SETUP_ID, "TrustLoad setup",
                        "Writes bin/trustload.properties (JVM Stats dashboard graphs: jmeter -q"
                        + " bin/trustload.properties)"
                                + " and the JVM options of the GM-SSL engine bgm into bin/setenv.sh;"
                                + " installed with TrustLoad.",
                        SETUP_CLASS, setup, baseUrl, projectUrl, Map.of(), List.of()));
        plugins.get(2).put("installerClass", SETUP_CLASS);
        Path descriptor = out.resolve(DESCRIPTOR);
        Files.writeString(descriptor, json(plugins, "") + "\n");
        return descriptor;
    }

    private static Map<String, Object> plugin(String id, String name, String description, String marker, Path jar,
            String baseUrl, String projectUrl, Map<String, String> libs, List<String> depends) throws IOException {
        Map<String, Object> version = new LinkedHashMap<>();
        version.put("downloadUrl", url(baseUrl, jar));
        version.put("libs", libs);
        version.put("depends", depends);
        version.put("changes", "TrustLoad " + version(jar.getFileName().toString()));
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("id", id);
        p.put("name", name);
        p.put("description", description);
        p.put("screenshotUrl", projectUrl + "/raw/main/docs/elements/img/LdapRequestSampler.png");
        p.put("helpUrl", projectUrl + "#readme");
        p.put("vendor", "TrustLoad");
        p.put("markerClass", marker);
        p.put("componentClasses", testBeans(jar));
        p.put("versions", Map.of(version(jar.getFileName().toString()), version));
        return p;
    }

    /** The concrete public TestBean classes in {@code jar} (loaded, not initialised). */
    static List<String> testBeans(Path jar) throws IOException {
        List<String> beans = new ArrayList<>();
        ClassLoader loader = PluginsRepo.class.getClassLoader();
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (String entry : jf.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")).sorted().toList()) {
                String name = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
                try {
                    Class<?> c = Class.forName(name, false, loader);
                    if (TestBean.class.isAssignableFrom(c) && !c.isInterface()
                            && !Modifier.isAbstract(c.getModifiers()) && Modifier.isPublic(c.getModifiers())) {
                        beans.add(name);
                    }
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new IOException("cannot load " + name + " from " + jar + ": " + e, e);
                }
            }
        }
        return beans;
    }

    /** The version in a jar file name as the manager reads it. */
    static String version(String jarName) {
        Matcher m = JAR_VERSION.matcher(jarName);
        if (!m.find()) {
            throw new IllegalArgumentException("no version in jar name " + jarName);
        }
        return m.group(1);
    }

    /**
     * The library name the manager looks for on the class path: it finds a lib {@code n} installed when
     * a class-path entry matches {@code \Wn-<digits>.<anything>.jar} (so classifiers are fine).
     */
    static String libName(String jarName) {
        Matcher m = LIB_NAME.matcher(jarName);
        if (!m.matches()) {
            throw new IllegalArgumentException("no <name>-<version>.jar form: " + jarName);
        }
        return m.group(1);
    }

    /** JSON for the maps, lists and strings the descriptor is made of (dist has no JSON library). */
    static String json(Object value, String indent) {
        String inner = indent + "  ";
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                return "{}";
            }
            return map.entrySet().stream()
                    .map(e -> inner + quote(e.getKey().toString()) + ": " + json(e.getValue(), inner))
                    .collect(Collectors.joining(",\n", "{\n", "\n" + indent + "}"));
        }
        if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                return "[]";
            }
            return list.stream().map(v -> inner + json(v, inner))
                    .collect(Collectors.joining(",\n", "[\n", "\n" + indent + "]"));
        }
        return quote(value.toString());
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private static String url(String baseUrl, Path jar) {
        return baseUrl.isEmpty() ? jar.getFileName().toString()
                : baseUrl.replaceFirst("/$", "") + "/" + jar.getFileName();
    }

    private static Path only(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> jars = s.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(".jar")).toList();
            if (jars.size() != 1) {
                throw new IOException("expected one " + prefix + "*.jar in " + dir + ", found " + jars);
            }
            return jars.get(0);
        }
    }
}
