package org.trustload.jmeter.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSummaryTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return RunSummary.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String stat(String label, long n, long errors, double mean, double p90, double p99) {
        return """
                "%1$s" : {"transaction":"%1$s","sampleCount":%2$d,"errorCount":%3$d,"errorPct":%4$s,
                  "meanResTime":%5$s,"medianResTime":4.0,"minResTime":1.0,"maxResTime":250.0,
                  "pct1ResTime":%6$s,"pct2ResTime":20.0,"pct3ResTime":%7$s,"throughput":123.456,
                  "receivedKBytesPerSec":1.0,"sentKBytesPerSec":0.5}
                """.formatted(label, n, errors, 100.0 * errors / n, mean, p90, p99);
    }

    private Path statistics() throws IOException {
        Path f = tmp.resolve("statistics.json");
        // JMeter writes Total first; the table must still put it last
        Files.writeString(f, "{" + stat("Total", 300, 3, 7.25, 12, 99) + ","
                + stat("ldap search", 200, 3, 8.5, 15, 120) + "," + stat("bind", 100, 0, 4.75, 6, 9) + "}");
        return f;
    }

    @Test
    void printsOneRowPerLabelSortedWithTotalLast() throws IOException {
        assertThat(run(statistics().toString())).isZero();
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\\R");
        assertThat(lines[0]).startsWith("Label").contains("Samples", "Errors", "Err%", "Avg ms", "Min ms",
                "Median", "p90 ms", "p99 ms", "Max ms", "Throughput/s");
        assertThat(lines[2]).startsWith("bind ").contains(" 100 ", " 0.00%", " 4.8 ", " 6 ", " 9 ", " 123.46");
        assertThat(lines[3]).startsWith("ldap search").contains(" 200 ", " 3 ", " 1.50%", " 8.5 ", " 15 ", " 120 ");
        assertThat(lines[5]).startsWith("Total").contains(" 300 ", " 1.00%", " 250 ");
        assertThat(lines[2].length()).isEqualTo(lines[5].length()); // fixed width
    }

    @Test
    void topErrorsComeFromTheCsvResultsMostFrequentFirst() throws IOException {
        Path jtl = tmp.resolve("results.jtl");
        Files.writeString(jtl, """
                timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage
                1,5,search,200,OK,t1,text,true,
                2,5,search,LDAP.Timeout,"read timed out, after 5000 ms",t1,text,false,
                3,5,search,LDAP.Timeout,"read timed out, after 5000 ms",t2,text,false,
                4,5,bind,LDAP.Connect,"refused ""127.0.0.1""\",t2,text,false,
                """);
        assertThat(run(statistics().toString(), jtl.toString())).isZero();
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("Top errors");
        assertThat(text.indexOf("2  LDAP.Timeout read timed out, after 5000 ms"))
                .isPositive().isLessThan(text.indexOf("1  LDAP.Connect refused \"127.0.0.1\""));
    }

    @Test
    void xmlResultsAreReadToo() throws IOException {
        Path jtl = tmp.resolve("results.xml");
        Files.writeString(jtl, """
                <?xml version="1.0" encoding="UTF-8"?>
                <testResults version="1.2">
                <sample t="5" s="true" lb="x" rc="200" rm="OK"/>
                <sample t="5" s="false" lb="x" rc="500" rm="Internal Server Error"/>
                </testResults>
                """);
        assertThat(run(statistics().toString(), jtl.toString())).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("1  500 Internal Server Error");
    }

    @Test
    void noErrorsSaysSo() throws IOException {
        Path jtl = tmp.resolve("ok.jtl");
        Files.writeString(jtl, "timeStamp,elapsed,label,responseCode,responseMessage,success\n1,1,a,200,OK,true\n");
        assertThat(run(statistics().toString(), jtl.toString())).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("No failed samples.");
    }

    @Test
    void missingOrEmptyStatisticsFail() throws IOException {
        assertThat(run(tmp.resolve("nope.json").toString())).isEqualTo(1);
        Path empty = Files.writeString(tmp.resolve("empty.json"), "");
        assertThat(run(empty.toString())).isEqualTo(1);
        Path noSamples = Files.writeString(tmp.resolve("zero.json"), "{}");
        assertThat(run(noSamples.toString())).isEqualTo(1);
        Path broken = Files.writeString(tmp.resolve("broken.json"), "{\"Total\": ");
        assertThat(run(broken.toString())).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("nope.json", "empty.json");
    }

    @Test
    void badUsageIsExitTwo() {
        assertThat(run()).isEqualTo(2);
    }
}
