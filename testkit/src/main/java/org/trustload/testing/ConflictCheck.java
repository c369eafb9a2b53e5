package org.trustload.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Fails the distribution when a jar we add clashes with what JMeter ships: the same artifact, the same class
 * or resource, or another version of a library JMeter brings (the kinds: docs/install.md, "Drop-in archive").
 * {@link #duplicates} checks a home whose jars cannot be told apart (jmeter-maven-plugin's) for anything held
 * twice. Usage: {@code ConflictCheck <jmeter home> <drop-in dir> [dependency-tree.txt]}; files at the drop-in's
 * relative paths count as ours.
 */
public final class ConflictCheck {

    private static final Pattern VERSION_SUFFIX = Pattern.compile("-\\d[^/]*\\.jar$");
    /** A verbose tree node: indentation, then g:a:type[:classifier]:version:scope, maybe in parentheses. */
    private static final Pattern TREE_NODE =
            Pattern.compile("^([| +\\\\-]*)\\(?([^: ()]+):([^: ()]+):[^: ()]+(?::[^: ()]+)?:([^: ()]+):[a-z]+(.*)$");
    /** Legal and readme files at a jar's root: many jars have them, no class loader lookup cares. */
    private static final Pattern ROOT_DOCUMENT =
            Pattern.compile("(?i)(license|licence|notice|readme|about|changelog|copying|dependencies)[^/]*");
    private static final Pattern OMITTED = Pattern.compile("omitted for conflict with ([^ )]+)");

    private ConflictCheck() {
    }

    /** What the check found; empty problems means the drop-in is safe to add to the home. */
    public record Result(List<Path> ourJars, List<String> problems) {
    }

    public static Result check(Path home, Path dropin, Path dependencyTree) throws IOException {
        List<Path> ours = jarsUnder(dropin);
        Set<Path> ourRelative = new TreeSet<>();
        ours.forEach(p -> ourRelative.add(dropin.relativize(p)));
        List<Path> jmeters = new ArrayList<>();
        for (Path p : jarsUnder(home)) {
            if (!ourRelative.contains(home.relativize(p))) {
                jmeters.add(p);
            }
        }
        List<String> problems = new ArrayList<>();
        if (jmeters.isEmpty()) {
            problems.add("no JMeter jars found under " + home);
        }

        Map<String, Path> jmeterArtifacts = new HashMap<>();
        Map<String, Path> jmeterEntries = new HashMap<>();
        for (Path jar : jmeters) {
            for (String key : artifactKeys(jar)) {
                jmeterArtifacts.put(key, jar);
            }
            for (String entry : checkedEntries(jar)) {
                jmeterEntries.putIfAbsent(entry, jar);
            }
        }
        for (Path jar : ours) {
            String name = dropin.relativize(jar).toString();
            for (String key : artifactKeys(jar)) {
                Path theirs = jmeterArtifacts.get(key);
                if (theirs != null) {
                    problems.add(name + ": artifact " + key + " is already shipped by JMeter as "
                            + home.relativize(theirs));
                }
            }
            Map<Path, List<String>> shared = new TreeMap<>();
            for (String entry : checkedEntries(jar)) {
                Path theirs = jmeterEntries.get(entry);
                if (theirs != null) {
                    shared.computeIfAbsent(theirs, k -> new ArrayList<>()).add(entry);
                }
            }
            shared.forEach((theirs, entries) -> problems.add(name + ": " + entries.size()
                    + " file(s) also in JMeter's " + home.relativize(theirs) + ", e.g. "
                    + entries.subList(0, Math.min(3, entries.size()))));
        }
        if (dependencyTree != null) {
            problems.addAll(versionConflicts(Files.readAllLines(dependencyTree)));
        }
        return new Result(ours, problems);
    }

    /**
     * Every pair of jars under {@code dir} (a JMeter home as some tool assembled it, e.g.
     * jmeter-maven-plugin's, where JMeter's jars and ours are not told apart) that hold the same class, or
     * the same Maven artifact (groupId:artifactId) twice: one line each, naming both jars, how many classes
     * they share and a few of them. Empty: no class on that class path depends on jar order. Resources
     * (license texts, data files) and file names are not compared here: JMeter's own jars share some, and
     * unrelated artifacts share names ({@code annotations-*.jar}).
     */
    public static List<String> duplicates(Path dir) throws IOException {
        Map<String, Path> byEntry = new HashMap<>();
        Map<String, Path> byArtifact = new HashMap<>();
        Map<List<Path>, List<String>> shared = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Path jar : jarsUnder(dir)) {
            for (String key : artifactKeys(jar)) {
                if (key.startsWith("file:")) {
                    continue;
                }
                Path other = byArtifact.putIfAbsent(key, jar);
                if (other != null) {
                    problems.add("artifact " + key + " twice: " + dir.relativize(other) + " and "
                            + dir.relativize(jar));
                }
            }
            for (String entry : checkedEntries(jar)) {
                if (!entry.endsWith(".class")) {
                    continue;
                }
                Path other = byEntry.putIfAbsent(entry, jar);
                if (other != null) {
                    shared.computeIfAbsent(List.of(other, jar), k -> new ArrayList<>()).add(entry);
                }
            }
        }
        shared.forEach((jars, entries) -> problems.add(dir.relativize(jars.get(0)) + " and "
                + dir.relativize(jars.get(1)) + " both hold " + entries.size() + " class(es), e.g. "
                + entries.subList(0, Math.min(3, entries.size()))));
        return problems;
    }

    /**
     * Reads a verbose {@code dependency:tree} of the dist module. Top-level children of groupId
     * org.apache.jmeter are JMeter's side, org.trustload ours.
     */
    public static List<String> versionConflicts(List<String> tree) {
        Map<String, String> resolved = new HashMap<>();
        Map<String, Set<String>> oursWants = new LinkedHashMap<>();
        Map<String, Set<String>> jmeterWants = new HashMap<>();
        String side = null;
        for (String line : tree) {
            Matcher m = TREE_NODE.matcher(line);
            if (!m.matches() || m.group(1).isEmpty()) {
                continue; // the root line or not a node
            }
            String ga = m.group(2) + ":" + m.group(3);
            String version = m.group(4);
            if (m.group(1).length() <= 3) { // a direct dependency of dist starts a side
                side = m.group(2).equals("org.apache.jmeter") ? "jmeter"
                        : m.group(2).equals("org.trustload") ? "ours" : null;
            }
            boolean omitted = line.contains("(" + m.group(2) + ":");
            Matcher o = OMITTED.matcher(line);
            if (!omitted) {
                resolved.put(ga, version);
            } else if (o.find()) {
                resolved.putIfAbsent(ga, o.group(1));
            }
            if ("ours".equals(side)) {
                oursWants.computeIfAbsent(ga, k -> new TreeSet<>()).add(version);
            } else if ("jmeter".equals(side)) {
                jmeterWants.computeIfAbsent(ga, k -> new TreeSet<>()).add(version);
            }
        }
        List<String> problems = new ArrayList<>();
        oursWants.forEach((ga, versions) -> {
            Set<String> jm = jmeterWants.get(ga);
            if (jm == null || ga.startsWith("org.trustload:")) {
                return;
            }
            String got = resolved.get(ga);
            boolean oursDiffer = versions.stream().anyMatch(v -> !v.equals(got));
            boolean jmeterOverridden = !jm.contains(got);
            if (oursDiffer || jmeterOverridden) {
                problems.add("version conflict on " + ga + ": TrustLoad asks for " + versions
                        + ", JMeter for " + jm + ", the home gets " + got);
            }
        });
        return problems;
    }

    static List<Path> jarsUnder(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }

    /** groupId:artifactId from embedded pom.properties (several in shaded jars), else the bare file name. */
    static Set<String> artifactKeys(Path jar) throws IOException {
        Set<String> keys = new TreeSet<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                if (e.getName().startsWith("META-INF/maven/") && e.getName().endsWith("/pom.properties")) {
                    Properties p = new Properties();
                    try (InputStream in = zip.getInputStream(e)) {
                        p.load(in);
                    }
                    if (p.getProperty("groupId") != null && p.getProperty("artifactId") != null) {
                        keys.add(p.getProperty("groupId") + ":" + p.getProperty("artifactId"));
                    }
                }
            }
        }
        String file = jar.getFileName().toString();
        keys.add("file:" + VERSION_SUFFIX.matcher(file).replaceFirst(".jar"));
        return keys;
    }

    /** Files whose presence in two jars matters: classes and resources outside META-INF. */
    static List<String> checkedEntries(Path jar) throws IOException {
        List<String> entries = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                String n = e.getName();
                if (e.isDirectory() || n.startsWith("META-INF/") || n.endsWith("module-info.class")
                        || ROOT_DOCUMENT.matcher(n).matches()) {
                    continue;
                }
                entries.add(n);
            }
        }
        return entries;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ConflictCheck <jmeter home> <drop-in dir> [dependency-tree.txt]");
            System.exit(2);
        }
        Result r = check(Path.of(args[0]), Path.of(args[1]), args.length > 2 ? Path.of(args[2]) : null);
        r.ourJars().forEach(j -> System.out.println("ours: " + Path.of(args[1]).relativize(j)));
        r.problems().forEach(p -> System.err.println("CONFLICT " + p));
        System.exit(r.problems().isEmpty() ? 0 : 1);
    }
}
