package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.jmeter.testbeans.TestBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jmeter-plugins-manager repository built in {@code dist/target/plugins-manager}: its descriptor
 * obeys the manager's schema and naming rules, and the real manager (kg.apc 1.3 with cmdrunner 2.2)
 * lists, installs, reports, uninstalls TrustLoad and installs it for one of our plans, in a fresh copy
 * of a plain JMeter home.
 */
class PluginsManagerIT {

    private static final Path HOME = Path.of(System.getProperty("trustload.jmeter.home"));
    private static final Path DROPIN = Path.of(System.getProperty("trustload.dropin.dir"));
    private static final Path REPO = Path.of(System.getProperty("trustload.plugins.repo"));
    private static final Path TOOL = Path.of(System.getProperty("trustload.plugins.manager"));
    private static final Path ROOT = Path.of(System.getProperty("trustload.root", ".."));
    private static final Path DESCRIPTOR = REPO.resolve("trustload-plugins.json");
    private static final String SETUP_JAR = "trustload-setup-0.1.0.jar";

    // The manager's schema (upstream repo_schema.json) and its file-name rules (Plugin, 1.3).
    private static final Set<String> PLUGIN_KEYS = Set.of("id", "name", "description", "screenshotUrl", "helpUrl",
            "vendor", "markerClass", "versions", "componentClasses", "canUninstall", "installerClass");
    private static final Set<String> REQUIRED = Set.of("id", "name", "description", "screenshotUrl", "helpUrl",
            "vendor", "markerClass", "versions");
    private static final Set<String> VERSION_KEYS = Set.of("downloadUrl", "depends", "changes", "libs");
    private static final Pattern VERSION_KEY = Pattern.compile("^\\d+(\\.\\d+)*(-\\w+)?$");
    private static final Pattern JAR_VERSION = Pattern.compile("-([\\.0-9]+(-[\\w]+)?).jar");

    @Test
    void descriptorFollowsTheManagersRulesAndListsEveryTestBean() throws Exception {
        JsonNode repo = new ObjectMapper().readTree(DESCRIPTOR.toFile());
        assertThat(repo.isArray()).as("descriptor is a JSON array").isTrue();
        Set<String> ids = new HashSet<>();
        repo.forEach(p -> ids.add(p.path("id").asText()));
        Set<String> libFiles = new TreeSet<>();
        Set<String> jmeterJars = new TreeSet<>(names(HOME.resolve("lib")));
        jmeterJars.removeAll(names(DROPIN.resolve("lib")));
        Set<String> pluginJars = new TreeSet<>();
        for (JsonNode plugin : repo) {
            String id = plugin.path("id").asText();
            assertThat(fieldNames(plugin)).as(id + " keys").isSubsetOf(PLUGIN_KEYS).containsAll(REQUIRED);
            assertThat(id).matches("[a-z0-9][a-z0-9-]*");
            for (String k : List.of("name", "description", "screenshotUrl", "helpUrl", "vendor", "markerClass")) {
                assertThat(plugin.path(k).isTextual()).as(id + "." + k + " is a string").isTrue();
            }
            assertThat(plugin.path("versions").size()).as(id + " versions").isPositive();
            for (String key : fieldNames(plugin.path("versions"))) {
                JsonNode v = plugin.path("versions").path(key);
                assertThat(key).as(id + " version key").matches(VERSION_KEY);
                assertThat(fieldNames(v)).as(id + " " + key + " keys").isSubsetOf(VERSION_KEYS).contains("downloadUrl");
                Path jar = REPO.resolve(v.path("downloadUrl").asText());
                assertThat(jar).as(id + " downloadUrl").isRegularFile();
                var m = JAR_VERSION.matcher(jar.getFileName().toString());
                assertThat(m.find() ? m.group(1) : null)
                        .as(id + ": version key = version in the jar name").isEqualTo(key);
                pluginJars.add(jar.getFileName().toString());
                v.path("depends").forEach(d -> assertThat(ids).as(id + " depends on a known id").contains(d.asText()));
                for (String lib : fieldNames(v.path("libs"))) {
                    String file = v.path("libs").path(lib).asText();
                    assertThat(REPO.resolve(file)).as(id + " lib " + lib).isRegularFile();
                    // how the manager finds an installed lib on the class path
                    assertThat(Pattern.compile("\\W" + Pattern.quote(lib) + "-([0-9]+\\..+).jar")
                            .matcher("/lib/" + file).find())
                            .as("lib name " + lib + " matches its file " + file).isTrue();
                    // manager 1.3 takes a lib as installed when any class-path jar matches this pattern (a
                    // version may hold letters): a jar JMeter ships must not match, or ours is never installed
                    Pattern installed = Pattern.compile("\\W" + lib + "-([\\.0-9a-zA-Z]+(-[\\w]+)?).jar");
                    for (String shipped : jmeterJars) {
                        assertThat(installed.matcher("/lib/" + shipped).find())
                                .as("JMeter's " + shipped + " passes for our lib " + lib).isFalse();
                    }
                    libFiles.add(file);
                }
                Set<String> classes = classesIn(jar);
                assertThat(classes).as(id + " markerClass in " + jar.getFileName())
                        .contains(plugin.path("markerClass").asText());
                List<String> components = new ArrayList<>();
                plugin.path("componentClasses").forEach(c -> components.add(c.asText()));
                assertThat(classes).as(id + " componentClasses in " + jar.getFileName()).containsAll(components);
                assertThat(components).as(id + ": every concrete TestBean of " + jar.getFileName())
                        .containsExactlyInAnyOrderElementsOf(testBeans(classes));
            }
        }
        assertThat(ids).hasSize(repo.size()).contains("trustload", "trustload-listeners", "trustload-setup");
        Set<String> expected = new TreeSet<>(names(DROPIN.resolve("lib/ext")));
        expected.add(SETUP_JAR);
        assertThat(pluginJars).as("every lib/ext jar of the drop-in is a plugin, and the setup jar")
                .isEqualTo(expected);
        JsonNode setup = null;
        for (JsonNode plugin : repo) {
            if (plugin.path("id").asText().equals("trustload-setup")) {
                setup = plugin;
            } else if (plugin.path("id").asText().equals("trustload")) {
                assertThat(plugin.path("versions").elements().next().path("depends").toString())
                        .contains("trustload-setup");
            }
        }
        assertThat(classesIn(REPO.resolve(SETUP_JAR))).as("the installer is in the setup plugin's jar")
                .contains(setup.path("installerClass").asText());
        assertThat(libFiles).as("every lib jar of the drop-in is a lib").isEqualTo(names(DROPIN.resolve("lib")));
    }

    @Test
    void realManagerListsInstallsAndUninstallsTrustLoadInAPlainJMeterHome(@TempDir Path tmp) throws Exception {
        Path home = plainHome(tmp.resolve("apache-jmeter"));
        Files.copy(TOOL.resolve("jmeter-plugins-manager-1.3.jar"),
                home.resolve("lib/ext/jmeter-plugins-manager-1.3.jar"));
        Files.copy(TOOL.resolve("cmdrunner-2.2.jar"), home.resolve("lib/cmdrunner-2.2.jar"));
        assertThat(exec(tmp, List.of(java(), "-cp", home.resolve("lib/ext/jmeter-plugins-manager-1.3.jar").toString(),
                "org.jmeterplugins.repository.PluginManagerCMDInstaller"))).isNotNull();
        assertThat(home.resolve("bin/PluginsManagerCMD.sh")).exists();

        assertThat(manager(home, tmp, "available")).contains("trustload=[0.1.0]", "trustload-listeners=[0.1.0]");

        assertThat(home.resolve("bin/setenv.sh")).as("a plain home has no bgm JVM options").doesNotExist();
        manager(home, tmp, "install", "trustload-listeners"); // pulls trustload and trustload-setup through depends
        Set<String> ext = new TreeSet<>(names(DROPIN.resolve("lib/ext")));
        ext.add(SETUP_JAR);
        Set<String> libs = names(DROPIN.resolve("lib"));
        awaitFiles(home, ext, libs, true);
        assertThat(manager(home, tmp, "status"))
                .contains("trustload=0.1.0", "trustload-listeners=0.1.0", "trustload-setup=0.1.0");
        // the setup plugin's installer (run by the manager after installing) wrote what jars cannot carry
        for (int i = 0; i < 240
                && !(Files.exists(home.resolve("bin/setenv.sh"))
                        && Files.exists(home.resolve("bin/trustload.properties"))); i++) {
            Thread.sleep(500);
        }
        assertThat(Files.mismatch(home.resolve("bin/trustload.properties"), DROPIN.resolve("bin/trustload.properties")))
                .isEqualTo(-1L);
        assertThat(Files.readString(home.resolve("bin/setenv.sh")))
                .contains("# >>> TrustLoad", "TRUSTLOAD_BGM_JVM_ARGS=", "# <<< TrustLoad");
        InstallProbe.assertComplete(home, tmp.resolve("probe"));

        manager(home, tmp, "uninstall", "trustload,trustload-setup"); // and the dependant
        awaitFiles(home, ext, libs, false);
        assertThat(manager(home, tmp, "status")).doesNotContain("trustload");

        Path plan = ROOT.resolve("test-plans/ldap/ldap-search-200x10.jmx");
        manager(home, tmp, "install-for-jmx", plan.toString());
        awaitFiles(home, ext.stream().filter(j -> j.startsWith("trustload-samplers-")).collect(Collectors.toSet()),
                libs, true);
        assertThat(names(home.resolve("lib/ext"))).as("install-for-jmx installs only what the plan uses")
                .noneMatch(j -> j.startsWith("trustload-listeners-"));
    }

    /** A pristine JMeter home: the assembled one without our files (hard links: cheap, read-only use). */
    private static Path plainHome(Path to) throws IOException {
        Set<String> ours = new HashSet<>();
        try (Stream<Path> s = Files.walk(DROPIN)) {
            s.filter(Files::isRegularFile).forEach(p -> ours.add(DROPIN.relativize(p).toString()));
        }
        try (Stream<Path> s = Files.walk(HOME)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                String rel = HOME.relativize(f).toString();
                // bin/setenv.sh is TrustLoad's (the bgm JVM options), JMeter ships none
                if (!ours.contains(rel) && !rel.equals("bin/setenv.sh")) {
                    Path dst = to.resolve(rel);
                    Files.createDirectories(dst.getParent());
                    // the manager writes bin/ scripts and moves jars: copy bin/, link the jars
                    if (rel.startsWith("bin/")) {
                        Files.copy(f, dst);
                    } else {
                        Files.createLink(dst, f);
                    }
                }
            }
        }
        return to;
    }

    private static String manager(Path home, Path tmp, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", home.resolve("bin/PluginsManagerCMD.sh").toString()));
        cmd.addAll(List.of(args));
        return exec(tmp, cmd);
    }

    private static String exec(Path dir, List<String> cmd) throws Exception {
        Path out = Files.createTempFile(dir, "manager", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        // a local repository file: download URLs are read relative to it; no statistics sent anywhere
        pb.environment().put("JVM_ARGS", "-Djpgc.repo.address=" + DESCRIPTOR + " -Djpgc.repo.sendstats=false");
        Process p = pb.start();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(cmd + " finished").isTrue();
        String text = Files.readString(out);
        assertThat(p.exitValue()).as(cmd + ":\n" + text).isZero();
        return text;
    }

    /** The manager applies changes in a process of its own after the command returns: wait for them. */
    private static void awaitFiles(Path home, Set<String> ext, Set<String> libs, boolean present) throws Exception {
        BooleanSupplier done = () -> Stream.concat(ext.stream().map(j -> home.resolve("lib/ext/" + j)),
                libs.stream().map(j -> home.resolve("lib/" + j))).allMatch(f -> Files.exists(f) == present);
        for (int i = 0; i < 240 && !done.getAsBoolean(); i++) {
            Thread.sleep(500);
        }
        for (var expected : List.of(new Object[] {"lib/ext", ext}, new Object[] {"lib", libs})) {
            @SuppressWarnings("unchecked")
            Set<String> want = (Set<String>) expected[1];
            Set<String> have = names(home.resolve((String) expected[0]));
            if (present) {
                assertThat(have).as(expected[0] + " after install").containsAll(want);
            } else {
                assertThat(have).as(expected[0] + " after uninstall").doesNotContainAnyElementsOf(want);
            }
        }
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".jar")).map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static Set<String> classesIn(Path jar) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            return jf.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class"))
                    .map(n -> n.substring(0, n.length() - 6).replace('/', '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static List<String> testBeans(Set<String> classes) throws ClassNotFoundException {
        List<String> beans = new ArrayList<>();
        for (String name : classes) {
            Class<?> c = Class.forName(name, false, PluginsManagerIT.class.getClassLoader());
            if (TestBean.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())
                    && Modifier.isPublic(c.getModifiers())) {
                beans.add(name);
            }
        }
        return beans;
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new TreeSet<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
