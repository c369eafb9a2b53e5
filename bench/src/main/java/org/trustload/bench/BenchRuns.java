package org.trustload.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.trustload.common.ChildProcess;
import org.trustload.harness.cli.KeyValues;

/** Small helpers of the benches: their arguments, the machine's load, a page section they write. */
public final class BenchRuns {

    private BenchRuns() {
    }

    /** The {@code key=value} arguments of a bench's main (the last of a key wins). */
    public static java.util.Map<String, String> options(String[] args) {
        return KeyValues.parse(List.of(args));
    }

    /** {@code key=value} argument, or the default. */
    public static int intArg(String[] args, String key, int def) {
        for (String a : args) {
            if (a.startsWith(key + "=")) {
                return Integer.parseInt(a.substring(key.length() + 1));
            }
        }
        return def;
    }

    /** The machine's load averages, to print beside every figure. */
    public static String uptime() {
        try {
            return ChildProcess.run(List.of("uptime"), Duration.ofSeconds(10)).output().trim()
                    .replaceAll(".*load average: ", "");
        } catch (java.io.IOException e) {
            return "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /** Replaces the text between {@code begin} and {@code end} of a page (appends both when missing). */
    public static void replaceSection(Path page, String begin, String end, String text) throws java.io.IOException {
        java.nio.file.Files.createDirectories(page.getParent());
        String doc = java.nio.file.Files.exists(page) ? java.nio.file.Files.readString(page) : "";
        int i = doc.indexOf(begin);
        int j = doc.indexOf(end);
        String section = begin + "\n" + text + "\n" + end;
        if (i >= 0 && j > i) {
            doc = doc.substring(0, i) + section + doc.substring(j + end.length());
        } else {
            doc = doc + (doc.isEmpty() ? "" : "\n") + section + "\n";
        }
        java.nio.file.Files.writeString(page, doc);
    }
}
