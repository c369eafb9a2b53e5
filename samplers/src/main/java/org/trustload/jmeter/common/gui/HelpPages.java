package org.trustload.jmeter.common.gui;

import java.awt.Component;
import java.awt.Desktop;
import java.awt.Dimension;
import java.awt.Window;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.swing.JDialog;
import javax.swing.JEditorPane;
import javax.swing.JScrollPane;
import javax.swing.SwingUtilities;
import javax.swing.event.HyperlinkEvent;

/**
 * TrustLoad's element pages (docs/elements/*.md), shipped inside the samplers jar under
 * {@value #FOLDER} with their screenshots, shown in a window of their own: help works offline, with
 * nothing but the drop-in installed. The pages are Markdown; {@link #toHtml} renders the small part
 * of Markdown they use (headings, paragraphs, lists, tables, code, links, images, emphasis) into the
 * HTML 3.2 that Swing displays.
 */
public final class HelpPages {
    /** Classpath folder of the pages (the samplers build copies docs/elements here). */
    public static final String FOLDER = "/org/trustload/jmeter/help/";

    private HelpPages() {
    }

    /** The page's address in the jar, or null if the jar has no such page. */
    public static URL page(String name) {
        return HelpPages.class.getResource(FOLDER + name + ".md");
    }

    /** The page rendered as HTML, images and links relative to the page. */
    public static String html(String name) {
        URL url = page(name);
        if (url == null) {
            throw new IllegalArgumentException("no help page " + FOLDER + name + ".md");
        }
        try (InputStream in = url.openStream()) {
            return "<html><head><base href=\"" + url + "\"></head><body>"
                    + toHtml(new String(in.readAllBytes(), StandardCharsets.UTF_8)) + "</body></html>";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Opens the page in a help window over the given component's window. */
    public static void show(Component parent, String name) {
        JEditorPane pane = new JEditorPane();
        pane.setEditable(false);
        pane.setContentType("text/html");
        pane.setText(html(name));
        pane.setCaretPosition(0);
        pane.addHyperlinkListener(e -> {
            if (e.getEventType() == HyperlinkEvent.EventType.ACTIVATED) {
                follow(pane, e);
            }
        });
        Window owner = parent == null ? null : SwingUtilities.getWindowAncestor(parent);
        JDialog dialog = new JDialog(owner, "TrustLoad help", java.awt.Dialog.ModalityType.MODELESS);
        dialog.setContentPane(new JScrollPane(pane));
        dialog.setSize(new Dimension(1000, 760));
        dialog.setLocationRelativeTo(owner);
        dialog.setVisible(true);
    }

    /** Another element page opens in the same window; a web address in the browser; others stay put. */
    private static void follow(JEditorPane pane, HyperlinkEvent e) {
        String href = e.getDescription() == null ? "" : e.getDescription();
        Matcher sibling = Pattern.compile("([a-z0-9-]+)\\.md(#.*)?").matcher(href);
        if (sibling.matches() && page(sibling.group(1)) != null) {
            pane.setText(html(sibling.group(1)));
            pane.setCaretPosition(0);
            if (sibling.group(2) != null) {
                pane.scrollToReference(sibling.group(2).substring(1));
            }
        } else if (href.startsWith("#")) {
            pane.scrollToReference(href.substring(1));
        } else if ((href.startsWith("https://") || href.startsWith("http://")) && Desktop.isDesktopSupported()) {
            try {
                Desktop.getDesktop().browse(URI.create(href));
            } catch (IOException | UnsupportedOperationException ex) {
                // no browser: the address stays readable in the page
            }
        }
    }

    // ------------------------------------------------------------------ Markdown subset

    private static final Pattern ORDERED = Pattern.compile("\\d+\\. (.*)");

    /** Renders the Markdown our element pages use. */
    public static String toHtml(String markdown) {
        String[] lines = markdown.replace("\r", "").split("\n", -1);
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < lines.length) {
            String line = lines[i];
            if (line.isBlank()) {
                i++;
            } else if (line.startsWith("<!--")) {
                // an HTML comment (section markers for editors): not shown
                while (i < lines.length && !lines[i].contains("-->")) {
                    i++;
                }
                i++;
            } else if (line.startsWith("```")) {
                out.append("<pre>");
                for (i++; i < lines.length && !lines[i].startsWith("```"); i++) {
                    out.append(escape(lines[i])).append('\n');
                }
                out.append("</pre>\n");
                i++;
            } else if (line.startsWith("#")) {
                int level = line.indexOf(' ');
                String text = line.substring(level + 1).trim();
                out.append("<a name=\"").append(slug(text)).append("\"></a><h").append(level).append('>')
                        .append(inline(text)).append("</h").append(level).append(">\n");
                i++;
            } else if (line.startsWith("|")) {
                out.append("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n");
                boolean header = true;
                for (; i < lines.length && lines[i].startsWith("|"); i++) {
                    if (lines[i].matches("\\|[\\s:|-]+\\|?")) {
                        continue;
                    }
                    out.append("<tr>");
                    for (String cell : cells(lines[i])) {
                        out.append(header ? "<th align=\"left\">" : "<td>").append(inline(cell.trim()))
                                .append(header ? "</th>" : "</td>");
                    }
                    out.append("</tr>\n");
                    header = false;
                }
                out.append("</table>\n");
            } else if (line.startsWith("- ") || line.startsWith("* ") || ORDERED.matcher(line).matches()) {
                boolean ordered = ORDERED.matcher(line).matches();
                out.append(ordered ? "<ol>\n" : "<ul>\n");
                StringBuilder item = null;
                for (; i < lines.length && !lines[i].isBlank(); i++) {
                    String l = lines[i];
                    Matcher m = ORDERED.matcher(l);
                    String start = ordered ? (m.matches() ? m.group(1) : null)
                            : (l.startsWith("- ") || l.startsWith("* ") ? l.substring(2) : null);
                    if (start != null) {
                        if (item != null) {
                            out.append("<li>").append(inline(item.toString())).append("</li>\n");
                        }
                        item = new StringBuilder(start);
                    } else if (item != null) {
                        item.append(' ').append(l.trim());
                    }
                }
                if (item != null) {
                    out.append("<li>").append(inline(item.toString())).append("</li>\n");
                }
                out.append(ordered ? "</ol>\n" : "</ul>\n");
            } else {
                StringBuilder para = new StringBuilder();
                for (; i < lines.length && !lines[i].isBlank() && !startsBlock(lines[i]); i++) {
                    para.append(para.length() == 0 ? "" : " ").append(lines[i].trim());
                }
                out.append("<p>").append(inline(para.toString())).append("</p>\n");
            }
        }
        return out.toString();
    }

    private static boolean startsBlock(String line) {
        return line.startsWith("```") || line.startsWith("#") || line.startsWith("<!--") || line.startsWith("|")
                || line.startsWith("- ")
                || line.startsWith("* ") || ORDERED.matcher(line).matches();
    }

    /** The cells of a table row; a pipe inside `code` or escaped as \| stays in its cell. */
    private static java.util.List<String> cells(String row) {
        java.util.List<String> cells = new java.util.ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        String body = row.substring(1);
        for (int k = 0; k < body.length(); k++) {
            char c = body.charAt(k);
            if (c == '\\' && k + 1 < body.length() && body.charAt(k + 1) == '|') {
                cell.append('|');
                k++;
            } else if (c == '`') {
                code = !code;
                cell.append(c);
            } else if (c == '|' && !code) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        if (!cell.toString().isBlank()) {
            cells.add(cell.toString());
        }
        return cells;
    }

    private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)\\]\\(([^)\\s]+)\\)");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)\\]\\(([^)\\s]+)\\)");
    private static final Pattern BOLD = Pattern.compile("\\*\\*([^*]+)\\*\\*");
    private static final Pattern ITALIC = Pattern.compile("(?<![\\w*])\\*([^*\\s][^*]*)\\*(?![\\w*])");

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** Code spans, images, links, bold and italics inside one block. */
    static String inline(String text) {
        // code spans first, parked as numbered placeholders, so nothing inside them is formatted
        java.util.List<String> code = new java.util.ArrayList<>();
        Matcher m = CODE.matcher(escape(text));
        StringBuilder s = new StringBuilder();
        while (m.find()) {
            code.add("<code>" + m.group(1) + "</code>");
            m.appendReplacement(s, "\u0000" + (code.size() - 1) + "\u0000");
        }
        m.appendTail(s);
        String out = IMAGE.matcher(s).replaceAll("<img src=\"$2\" alt=\"$1\">");
        out = LINK.matcher(out).replaceAll("<a href=\"$2\">$1</a>");
        out = BOLD.matcher(out).replaceAll("<b>$1</b>");
        out = ITALIC.matcher(out).replaceAll("<i>$1</i>");
        for (int k = 0; k < code.size(); k++) {
            out = out.replace("\u0000" + k + "\u0000", code.get(k));
        }
        return out;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
    static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
