package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.trustload.harness.Main;

/**
 * The docs name only what exists: every {@code ./trustload COMMAND} in a markdown file of the checkout is one of
 * the launcher's commands, and every {@code --option} written after it (in the same code span, or on the same
 * command line of a code block, continuation lines joined) is one the launcher lists for that command in
 * {@code ./trustload help} ({@link Main#usage()}); every scenario page (docs/scenarios/, bench pages aside) has
 * exactly one table "Point it at your server" whose properties are ones a plan reads ({@code ${__P(name,…)}} in
 * test-plans/).
 */
class LauncherDocsTest {

    private static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
    private static final Pattern COMMAND_LINE = Pattern.compile("^  ([a-z]+)\\b(.*)$");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");
    private static final Pattern LAUNCH = Pattern.compile("\\./trustload\\s+([a-z][a-z-]*)");
    private static final Pattern PROPERTY_CALL = Pattern.compile("__P\\(([A-Za-z0-9_.-]+)");

    /** The launcher's commands and, per command, the options its help lists. */
    static Map<String, Set<String>> commands(String usage) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        String current = null;
        for (String line : usage.lines().toList()) {
            if (line.startsWith("Exit status")) {
                break;
            }
            Matcher m = COMMAND_LINE.matcher(line);
            if (m.matches()) {
                current = m.group(1);
                out.put(current, new LinkedHashSet<>());
            } else if (!line.startsWith("   ") || current == null) {
                if (!line.isBlank()) {
                    current = null;
                }
                continue;
            }
            Matcher o = OPTION.matcher(line);
            while (o.find()) {
                out.get(current).add(o.group());
            }
        }
        return out;
    }

    /** A page's lines with a code block's continuation lines ({@code \} at the end) joined. */
    static List<String> logicalLines(Path page) throws IOException {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        StringBuilder pending = new StringBuilder();
        for (String line : Files.readAllLines(page)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
            }
            if (fenced && line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            out.add(pending + line);
            pending.setLength(0);
        }
        return out;
    }

    /**
     * What {@code line} asks of the launcher that it does not have, as {@code page:line: ./trustload cmd --opt (why)}.
     */
    static List<String> unknown(String where, String line, Map<String, Set<String>> commands) {
        List<String> out = new ArrayList<>();
        Matcher m = LAUNCH.matcher(line);
        while (m.find()) {
            String cmd = m.group(1);
            if (!commands.containsKey(cmd)) {
                out.add(where + ": ./trustload " + cmd + " (no such command; the launcher has "
                        + commands.keySet() + ")");
                continue;
            }
            boolean inSpan = line.substring(0, m.start()).chars().filter(c -> c == '`').count() % 2 == 1;
            String tail = line.substring(m.end());
            int end = tail.length();
            for (String stop : inSpan ? List.of("`") : List.of("`", "./trustload", " #", "|", ";", "&&")) {
                int at = tail.indexOf(stop);
                if (at >= 0) {
                    end = Math.min(end, at);
                }
            }
            Matcher o = OPTION.matcher(tail.substring(0, end));
            while (o.find()) {
                if (!commands.get(cmd).contains(o.group())) {
                    out.add(where + ": ./trustload " + cmd + " " + o.group() + " (not an option of " + cmd + "; it has "
                            + commands.get(cmd) + ")");
                }
            }
        }
        return out;
    }

    @Test
    void theDocsNameOnlyTheLaunchersCommandsAndOptions() throws IOException {
        Map<String, Set<String>> commands = commands(Main.usage());
        assertThat(commands).containsKeys("list", "run", "size", "lab", "gui", "bench", "fixture", "help");
        assertThat(commands.get("run")).contains("--engines", "--max-error-pct", "--no-lab", "--slo");
        List<String> wrong = new ArrayList<>();
        int named = 0;
        for (Path page : MarkdownLinksTest.markdownFiles()) {
            List<String> lines = logicalLines(page);
            for (int i = 0; i < lines.size(); i++) {
                String where = ROOT.relativize(page) + ":" + (i + 1);
                wrong.addAll(unknown(where, lines.get(i), commands));
                named += (int) LAUNCH.matcher(lines.get(i)).results().count();
            }
        }
        System.out.println(named + " ./trustload commands named in the docs, checked against ./trustload help");
        assertThat(named).isGreaterThan(50);
        assertThat(wrong).as("commands and options the launcher does not have").isEmpty();
    }

    @Test
    void theCheckerFindsAnUnknownCommandAndOptionAndAcceptsGoodOnes() {
        Map<String, Set<String>> commands = commands("""
                Usage: ./trustload COMMAND [ARGS]

                  run PLAN [--engines N]
                                               more text --max-error-pct P
                  lab [SERVICES]               run the lab
                  help                         this text

                Exit status of run (docs/harness.md):
                  1  --not-an-option
                """);
        assertThat(commands).containsOnlyKeys("run", "lab", "help");
        assertThat(commands.get("run")).containsExactly("--engines", "--max-error-pct");
        assertThat(unknown("p", "`./trustload run X --engines 2` and `./trustload lab ldap --port-base 1` and"
                + " `./trustload frob`",
                commands)).containsExactly("p: ./trustload lab --port-base (not an option of lab; it has [])",
                "p: ./trustload frob (no such command; the launcher has [run, lab, help])");
        assertThat(unknown("p", "TRUSTLOAD_LAB_ARGS=\"--port-base 2\" ./trustload run X --max-error-pct 5  #"
                + " --not-checked", commands))
                .isEmpty();
    }

    /** The {@code __P} names of every plan of test-plans/. */
    static Set<String> planProperties() throws IOException {
        Set<String> names = new LinkedHashSet<>();
        try (Stream<Path> plans = Files.walk(ROOT.resolve("test-plans"))) {
            for (Path p : plans.filter(f -> f.toString().endsWith(".jmx") && !f.toString().contains("/target/"))
                    .toList()) {
                Matcher m = PROPERTY_CALL.matcher(Files.readString(p));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    @Test
    void everyScenarioPageHasOnePointItAtYourServerTableOfRealProperties() throws IOException {
        Set<String> known = planProperties();
        assertThat(known).contains("ldap.host", "pki.url", "filter");
        List<String> wrong = new ArrayList<>();
        List<Path> pages;
        try (Stream<Path> s = Files.list(ROOT.resolve("docs/scenarios"))) {
            // the bench pages hold a bench's results, not a plan's scenario
            pages = s.filter(p -> p.toString().endsWith(".md") && !p.toString().endsWith("-bench.md")).sorted()
                    .toList();
        }
        assertThat(pages).hasSizeGreaterThanOrEqualTo(12);
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            long tables = lines.stream().filter(l -> l.equals("## Point it at your server")).count();
            if (tables != 1) {
                wrong.add(ROOT.relativize(page) + ": " + tables + " sections '## Point it at your server', not 1");
                continue;
            }
            int i = lines.indexOf("## Point it at your server");
            while (i < lines.size() && !lines.get(i).startsWith("| property | meaning | lab default |")) {
                i++;
            }
            if (i == lines.size()) {
                wrong.add(ROOT.relativize(page) + ": no table '| property | meaning | lab default |' in the section");
                continue;
            }
            for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
                String first = lines.get(i).split("\\|")[1];
                Matcher names = Pattern.compile("`([^`]+)`").matcher(first);
                boolean any = false;
                while (names.find()) {
                    any = true;
                    if (!known.contains(names.group(1))) {
                        wrong.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + names.group(1)
                                + " is read by no plan");
                    }
                }
                if (!any) {
                    wrong.add(ROOT.relativize(page) + ":" + (i + 1) + ": no `property` in the first column");
                }
            }
        }
        assertThat(wrong).isEmpty();
    }
}
