package org.trustload.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link of every markdown file of the checkout leads somewhere: a relative link to a file or folder
 * that exists, an anchor ({@code #heading} or {@code page.md#heading}) to a heading of that page as GitHub
 * names it (lower case, punctuation dropped, spaces to hyphens, {@code -1}, {@code -2} for repeats). Web
 * links are not fetched (no network here); links inside code blocks and code spans are not links.
 */
class MarkdownLinksTest {

    private static final Path ROOT = Path.of(System.getProperty("trustload.root", "..")).toAbsolutePath().normalize();
    /** {@code [text](target)} and {@code ![alt](target)}; the target up to a blank or the closing parenthesis. */
    private static final Pattern LINK = Pattern.compile(
            "!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    static List<Path> markdownFiles() throws IOException {
        try (Stream<Path> s = Files.walk(ROOT)) {
            return s.filter(p -> p.toString().endsWith(".md")).filter(p -> {
                Path rel = ROOT.relativize(p);
                for (Path part : rel) {
                    String n = part.toString();
                    if (n.equals("target") || n.startsWith(".") || n.equals("node_modules") || n.equals("results")) {
                        return false;
                    }
                }
                return true;
            }).sorted().toList();
        }
    }

    /** The page's text without fenced code blocks and code spans (their brackets are not links). */
    static List<String> proseLines(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file)) {
            if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
                fenced = !fenced;
                out.add("");
                continue;
            }
            out.add(fenced ? "" : line.replaceAll("`[^`]*`", "``"));
        }
        return out;
    }

    /** GitHub's anchor for a heading text. */
    static String slug(String heading) {
        // HTML tags count only outside code spans: `<base+8444>` is text to GitHub, <br> is not
        String[] parts = heading.split("`", -1);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            b.append(i % 2 == 0 ? parts[i].replaceAll("<[^>]+>", "") : parts[i]);
        }
        String text = b.toString().replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file)) {
            if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String s = slug(h.group(2));
                int n = seen.merge(s, 1, Integer::sum);
                anchors.add(n == 1 ? s : s + "-" + (n - 1));
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
                anchors.add(a.group(1));
            }
        }
        return anchors;
    }

    /** The broken links of one page, as {@code page:line: target (why)}. */
    static List<String> brokenLinks(Path page) throws IOException {
        List<String> broken = new ArrayList<>();
        List<String> lines = proseLines(page);
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = LINK.matcher(lines.get(i));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
                    continue; // https:, mailto:, file: ... : not checked here
                }
                String where = ROOT.relativize(page) + ":" + (i + 1) + ": " + target;
                int hash = target.indexOf('#');
                String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path to = file.isEmpty() ? page : (file.startsWith("/") ? ROOT.resolve(file.substring(1))
                        : page.getParent().resolve(file)).normalize();
                if (!Files.exists(to)) {
                    broken.add(where + " (no such file " + ROOT.relativize(to) + ")");
                } else if (anchor != null && !anchor.isEmpty() && to.toString().endsWith(".md")
                        && !anchors(to).contains(anchor)) {
                    broken.add(where + " (no heading #" + anchor + " in " + ROOT.relativize(to) + ")");
                }
            }
        }
        return broken;
    }

    @Test
    void everyLinkOfEveryMarkdownFileLeadsSomewhere() throws IOException {
        List<Path> pages = markdownFiles();
        assertThat(pages).as("markdown files under " + ROOT).hasSizeGreaterThan(20);
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            broken.addAll(brokenLinks(page));
            for (String line : proseLines(page)) {
                Matcher m = LINK.matcher(line);
                while (m.find()) {
                    links++;
                }
            }
        }
        System.out.println(pages.size() + " markdown files, " + links + " links checked");
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void theCheckerFindsABrokenFileAndABrokenAnchorAndAcceptsGoodOnes() throws IOException {
        Path page = Files.createDirectories(ROOT.resolve("dist/target/link-check")).resolve("page.md");
        Files.writeString(page, """
                # A title
                ## Reading `the` results (summary)
                ## Reading `the` results (summary)
                [ok](#a-title) [ok](#reading-the-results-summary-1) [ok](../../../README.md) [web](https://example.org)
                [bad file](nowhere.md) [bad anchor](#nowhere) `[code](nowhere.md)`
                ```
                [fenced](nowhere.md)
                ```
                """);
        assertThat(brokenLinks(page)).hasSize(2).anySatisfy(b -> assertThat(b).contains("nowhere.md (no such file"))
                .anySatisfy(b -> assertThat(b).contains("#nowhere (no heading"));
    }
}
