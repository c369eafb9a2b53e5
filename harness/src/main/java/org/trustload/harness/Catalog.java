package org.trustload.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plan library's {@code test-plans/catalog.tsv}: which lab services a plan needs and which property points it
 * elsewhere.
 */
public final class Catalog {

    /**
     * A catalog row.
     *
     * @param id the plan's path under test-plans/ without .jmx, e.g. {@code ldap/ldap-search-200x10}
     * @param services the lab services it needs (empty: none)
     * @param targets the properties that point it at a real server (any of them set: no lab)
     * @param description one line for {@code ./trustload list}
     */
    public record Entry(String id, List<String> services, List<String> targets, String description) {
    }

    private final Map<String, Entry> rows;

    private Catalog(Map<String, Entry> rows) {
        this.rows = rows;
    }

    public static Catalog read(Path file) throws IOException {
        Map<String, Entry> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length < 4) {
                throw new IOException(file + ": expected 4 tab-separated columns: " + line);
            }
            rows.put(f[0], new Entry(f[0], list(f[1]), list(f[2]), f[3]));
        }
        return new Catalog(rows);
    }

    private static List<String> list(String column) {
        List<String> out = new ArrayList<>();
        if (!column.isBlank() && !column.strip().equals("-")) {
            for (String s : column.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.strip());
                }
            }
        }
        return List.copyOf(out);
    }

    public List<Entry> entries() {
        return List.copyOf(rows.values());
    }

    public Optional<Entry> get(String id) {
        return Optional.ofNullable(rows.get(id));
    }

    /**
     * The {@code ./trustload list} table: each plan, the lab services it needs, its target properties (any of
     * them set with {@code -J} or {@code -q}: a real server, no lab) and its description.
     */
    public String table() {
        int w = Math.max(4, rows.keySet().stream().mapToInt(String::length).max().orElse(4));
        int t = Math.max(6, rows.values().stream().mapToInt(e -> String.join(",", e.targets()).length()).max()
                .orElse(6));
        String fmt = "%-" + w + "s  %-10s %-" + t + "s  %s%n";
        StringBuilder sb = new StringBuilder(String.format(fmt, "PLAN", "LAB", "TARGET", "DESCRIPTION"));
        for (Entry e : rows.values()) {
            sb.append(String.format(fmt, e.id(), e.services().isEmpty() ? "-" : String.join(",", e.services()),
                    e.targets().isEmpty() ? "-" : String.join(",", e.targets()), e.description()));
        }
        sb.append(String.format("%nTARGET: the property that points a plan at your server (-Jname=value or -q FILE; no"
                + " lab then); each scenario page (docs/scenarios/) has the table of all its properties, \"Point it at"
                + " your server\".%n"));
        return sb.toString();
    }
}
