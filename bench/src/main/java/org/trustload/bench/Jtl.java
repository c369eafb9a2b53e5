package org.trustload.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Reads a JMeter CSV results file (header line required; time stamps are sample starts). */
final class Jtl {
    record Sample(String label, long start, long elapsed, boolean success, String code, String message) {
        long end() {
            return start + elapsed;
        }
    }

    /** Count, span and throughput of a subset of samples. */
    record Stats(int samples, int errors, long firstStart, long lastEnd) {
        long spanMs() {
            return lastEnd - firstStart;
        }
    }

    private Jtl() {
    }

    static List<Sample> read(Path file) throws IOException {
        List<Sample> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = r.readLine();
            if (header == null) {
                return out;
            }
            List<String> cols = split(header);
            int ts = cols.indexOf("timeStamp");
            int el = cols.indexOf("elapsed");
            int lb = cols.indexOf("label");
            int ok = cols.indexOf("success");
            int rc = cols.indexOf("responseCode");
            int rm = cols.indexOf("responseMessage");
            if (ts < 0 || el < 0 || lb < 0 || ok < 0) {
                throw new IOException(file + ": not a CSV JTL with a header: " + header);
            }
            String line;
            StringBuilder pending = null;
            while ((line = r.readLine()) != null) {
                // a quoted field may contain a newline: join until the quotes balance
                if (pending != null) {
                    pending.append('\n').append(line);
                    line = pending.toString();
                }
                if (quotes(line) % 2 != 0) {
                    if (pending == null) {
                        pending = new StringBuilder(line);
                    }
                    continue;
                }
                pending = null;
                List<String> f = split(line);
                if (f.size() <= Math.max(Math.max(ts, el), Math.max(lb, ok))) {
                    continue;
                }
                out.add(new Sample(f.get(lb), Long.parseLong(f.get(ts)), Long.parseLong(f.get(el)),
                        Boolean.parseBoolean(f.get(ok)), rc >= 0 ? f.get(rc) : "", rm >= 0 ? f.get(rm) : ""));
            }
        }
        return out;
    }

    static Stats stats(List<Sample> samples, Predicate<Sample> counted, Predicate<Sample> inSpan) {
        int n = 0;
        int errors = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Sample s : samples) {
            if (inSpan.test(s)) {
                first = Math.min(first, s.start());
                last = Math.max(last, s.end());
                if (!s.success()) {
                    errors++;
                }
            }
            if (counted.test(s)) {
                n++;
            }
        }
        return new Stats(n, errors, first, last);
    }

    private static int quotes(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '"') {
                n++;
            }
        }
        return n;
    }

    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cur.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
