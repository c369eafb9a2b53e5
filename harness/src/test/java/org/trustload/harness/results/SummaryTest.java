package org.trustload.harness.results;

import org.trustload.harness.Main;
import org.trustload.harness.results.Summary;
import org.trustload.common.Percentiles;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
            + "success,failureMessage,bytes\n";

    @Test
    void totalCountsTopLevelSamplesOnlySubResultsAndTransactionsBeneath(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, HEADER
                // a sample with three sub-results, written right after it (JMeter's order)
                + "1000,300,sign,200,ok,G 1-1,text,true,,1\n"
                + "1000,100,sign start,200,ok,G 1-1,text,true,,1\n"
                + "1100,100,sign sign,200,ok,G 1-1,text,true,,1\n"
                + "1200,100,sign complete,200,ok,G 1-1,text,true,,1\n"
                // another thread's plain sample, then a sample that starts exactly when the previous one ended
                + "1050,10,other,500,\"Internal, error\",G 1-2,text,false,,1\n"
                + "1300,0,sign,200,ok,G 1-1,text,true,,1\n"
                // a transaction controller's row after the samples it timed (non-parent mode)
                + "2000,5,connect,200,ok,T 1-1,text,true,,1\n2005,5,search,200,ok,T 1-1,text,true,,1\n2000,10,ldap"
                + " 1,200,\"Number of samples in transaction : 2, number of failing samples : 0\",T 1-1,,true,,2\n");
        Summary s = Summary.of(jtl);
        assertThat(s.total().count()).isEqualTo(5);
        assertThat(s.total().errors()).isEqualTo(1);
        assertThat(s.rows()).isEqualTo(9);
        assertThat(s.samples().get("sign").count()).isEqualTo(2);
        assertThat(s.subResults().get("sign")).containsOnlyKeys("sign start", "sign sign", "sign complete");
        assertThat(s.transactions()).containsOnlyKeys("ldap 1");
        assertThat(s.exact()).as("no trustload_event column: sub-results inferred from their names").isFalse();
        assertThat(s.topErrors()).singleElement().satisfies(e -> {
            assertThat(e.key()).isEqualTo("500 Internal, error");
            assertThat(e.count()).isEqualTo(1);
        });
        assertThat(s.hasThreadsOf("G")).isTrue();
        assertThat(s.hasThreadsOf("setUp")).isFalse();

        String table = s.table(Optional.of(new Summary.Summariser(5, 2, 2.5, 1)));
        assertThat(table).containsPattern("(?m)^Total +5 +1 +20\\.00% .* 2\\.50$");
        // indentation means one thing: a sub-result, part of the row above; transactions are a block of their own
        assertThat(table).contains("  - sign start").containsPattern("(?m)^connect ")
                .containsPattern("(?m)^Transactions \\(not in Total\\)")
                .containsPattern("(?m)^ldap 1 +1 +0 +10\\.00 +- +- +10 +2 +5\\.000$")
                .contains("Total: 5 top-level samples = JMeter's summariser's count.");
        assertThat(table.replaceAll("\\s+", " ")).contains(
                "Not added to any total: 3 sub-result rows (indented beneath their samples), 1 transaction row;"
                        + " results.jtl has 9 rows");
    }

    /** The ldap-vs-ldaps-vs-ldapi shape: per protocol a warm-up, then transactions over loops of one search. */
    private static String protocolRuns() {
        StringBuilder rows = new StringBuilder(HEADER);
        long t = 1_000;
        for (String proto : new String[] {"ldap", "ldaps"}) {
            for (int i = 0; i < 30; i++, t += 2) {
                rows.append(t).append(",2,warm-up ").append(proto).append(" search,0,ok,P 1-1,text,true,,1\n");
            }
            rows.append(t - 60).append(",60,warm-up ").append(proto)
                    .append(" N=30 total,200,\"Number of samples in transaction : 30, number of failing samples :"
                            + " 0\",P 1-1,,true,,1\n");
            for (int n : new int[] {1, 10}) {
                long from = t;
                for (int i = 0; i < n; i++, t += 3) {
                    rows.append(t).append(",3,").append(proto).append(" search N=").append(n)
                            .append(",0,ok,P 1-1,text,true,,1\n");
                }
                rows.append(from).append(',').append(t - from).append(',').append(proto).append(" N=").append(n)
                        .append(" total,200,\"Number of samples in transaction : ").append(n)
                        .append(", number of failing samples : 0\",P 1-1,,true,,1\n");
            }
        }
        // a warm-up thread group: its samples are warm-up whatever their labels
        rows.append("900,5,ldap search N=10,0,ok,Warm-up threads 1-1,text,true,,1\n");
        return rows.toString();
    }

    @Test
    void warmUpIsABlockOfItsOwnInNoTotalAndRowsComeInTheOrderTheyRan(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, protocolRuns());
        Summary s = Summary.of(jtl);
        assertThat(s.total().count()).isEqualTo(22);
        assertThat(s.warmUp().count()).isEqualTo(61);
        assertThat(s.samples()).containsOnlyKeys("ldap search N=1", "ldap search N=10", "ldaps search N=1",
                "ldaps search N=10");
        assertThat(s.samples().get("ldap search N=10").count())
                .as("the warm-up thread group's sample is not counted here").isEqualTo(10);
        assertThat(s.warmUpSamples()).containsOnlyKeys("warm-up ldap search", "warm-up ldaps search",
                "ldap search N=10");
        assertThat(s.transactions()).containsOnlyKeys("ldap N=1 total", "ldap N=10 total", "ldaps N=1 total",
                "ldaps N=10 total");
        assertThat(s.warmUpTransactions()).containsOnlyKeys("warm-up ldap N=30 total", "warm-up ldaps N=30 total");
        assertThat(s.samplesTimedBy("ldap N=10 total")).isEqualTo(10);
        assertThat(s.threadGroup("P").count()).as("a thread group's count holds its warm-up").isEqualTo(82);

        // JMeter's summariser counts every top-level sample: Total = summariser - warm-up
        String table = s.table(Optional.of(new Summary.Summariser(83, 1, 83, 0)));
        List<String> lines = table.lines().toList();
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(Summary.WIDTH));
        assertThat(table.replaceAll("\\s+", " "))
                .contains("Total: 22 top-level samples = JMeter's summariser's 83 less the 61 warm-up samples.")
                .doesNotContain("but the summariser counted");
        // run order, not sorted by name: ldap's rows before ldaps's, N=1 before N=10
        assertThat(table.indexOf("\nldap search N=1 ")).isLessThan(table.indexOf("\nldap search N=10 "));
        assertThat(table.indexOf("\nldap search N=10 ")).isLessThan(table.indexOf("\nldaps search N=1 "));
        // one sample: no percentiles, no rate; ten: both
        assertThat(table).containsPattern("(?m)^ldap search N=1 +1 +0 +0\\.00% +3\\.00 +- +- +- +- +3 +-$")
                .containsPattern("(?m)^ldap search N=10 +10 +0 +0\\.00% +3\\.00 +3\\.00 +3\\.00 +3\\.00 +3\\.00 +3"
                        + " +333\\.33$");
        // the warm-up ran between Total's samples: Total's rate would mix them
        assertThat(table).containsPattern("(?m)^Total +22 +0 +0\\.00% .* -$")
                .containsPattern("(?m)^Warm-up total +61 ").contains("Warm-up (not in Total)",
                        "\n\nTransactions (not in Total)");
        assertThat(table.replaceAll("\\s+", " ")).contains("Rate/s: a row's samples over their span;"
                + " Total's is not given, as the warm-up ran between its samples");
        // the scenario's figure: a transaction's time and its time per sample
        assertThat(table).containsPattern("(?m)^ldap N=10 total +1 +0 +30\\.00 +- +- +30 +10 +3\\.000$")
                .containsPattern("(?m)^warm-up ldap N=30 total +1 +0 +60\\.00 ");
        assertThat(table.replaceAll("\\s+", " ")).contains("Not added to any total: 4 transaction rows, 2 warm-up"
                + " transaction rows; results.jtl has 89 rows (22 + 61 warm-up samples and these).");
        assertThat(22 + 61 + 4 + 2).isEqualTo(s.rows());
        // a summariser that disagrees is said so
        assertThat(s.table(Optional.of(new Summary.Summariser(84, 1, 84, 0))).replaceAll("\\s+", " "))
                .contains("but the summariser counted 84, not 83");
    }

    @Test
    void theSteadyWindowLeavesOutTheRampUpAndTheWarmUp(@TempDir Path dir) throws Exception {
        StringBuilder rows = new StringBuilder(HEADER);
        rows.append("500,900,warm-up,200,ok,G 1-1,text,true,,1\n");
        for (int i = 0; i < 20; i++) {
            // the first 10 s: slow; then fast
            rows.append(1000 + i * 1000).append(',').append(i < 10 ? 500 : 5).append(",s,200,ok,G 1-1,text,")
                    .append(i != 15).append(",,1\n");
        }
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, rows);
        Summary s = Summary.of(jtl);
        assertThat(s.steady(0).count()).isEqualTo(20);
        Summary.Stats steady = s.steady(10_000);
        assertThat(steady.count()).isEqualTo(10);
        assertThat(steady.errors()).isEqualTo(1);
        assertThat(steady.max()).isEqualTo(5);
        assertThat(org.trustload.slo.Objective.parse("p99<=10ms").broken(steady.measured())).isEmpty();
        assertThat(org.trustload.slo.Objective.parse("p99<=10ms,errors<=5%").broken(steady.measured()))
                .containsExactly("errors 10% > 5%");
        assertThat(org.trustload.slo.Objective.parse("p99<=10ms").broken(s.steady(0).measured())).singleElement()
                .satisfies(b -> assertThat(b).startsWith("p99 500 ms > 10 ms"));
    }

    private static final String EXACT_HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
            + "dataType,success,failureMessage,bytes,trustload_event\n";

    @Test
    void theEventColumnTellsSubResultsFromSamplesWhateverTheirTimesAndNames(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, EXACT_HEADER
                // per-thread mode: 0 ms searches whose clocks overlap the previous one by a millisecond
                + "1000,1,search,200,ok,G 1-1,text,true,,1,1\n"
                + "1000,0,search,200,ok,G 1-1,text,true,,1,2\n"
                + "1000,0,search-0,200,ok,G 1-1,text,true,,1,2\n"
                // another thread interleaves; a sample named like a sub-result of the previous one is a sample
                + "1000,1,search,200,ok,G 1-2,text,true,,1,1\n"
                + "1001,0,search-1,200,ok,G 1-1,text,true,,1,3\n"
                + "1001,0,search step,200,ok,G 1-1,text,true,,1,3\n"
                // a parent-mode transaction: its children are its sub-results, nothing of it is in Total
                + "2000,10,tx,200,\"Number of samples in transaction : 2, number of failing samples : 0\",G"
                + " 1-2,,true,,2,2\n2000,5,connect,200,ok,G 1-2,text,true,,1,2\n2005,5,search,200,ok,G"
                + " 1-2,text,true,,1,2\n2010,0,search,200,ok,G 1-2,text,true,,1,3\n");
        Summary s = Summary.of(jtl);
        assertThat(s.exact()).isTrue();
        assertThat(s.total().count()).isEqualTo(5);
        assertThat(s.samples()).containsOnlyKeys("search", "search-1");
        assertThat(s.samples().get("search").count()).isEqualTo(4);
        assertThat(s.subResults().get("search")).containsOnlyKeys("search-0");
        assertThat(s.subResults().get("search-1")).containsOnlyKeys("search step");
        assertThat(s.subResults().get("tx")).containsOnlyKeys("connect", "search");
        assertThat(s.transactions()).containsOnlyKeys("tx");
        assertThat(s.threadGroup("G").count()).isEqualTo(5);
        assertThat(s.rows()).isEqualTo(10);
    }

    @Test
    void withoutThreadNamesTheEventColumnStillKeepsInterleavedThreadsApart(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, "timeStamp,elapsed,label,responseCode,responseMessage,success,trustload_event\n"
                + "1000,9,sign,200,ok,true,1.1\n"
                + "1000,3,sign,200,ok,true,2.1\n"   // another thread's sample between a sample and its sub-result
                + "1001,2,sign start,200,ok,true,1.1\n"
                + "1003,1,sign start,200,ok,true,2.1\n"
                + "1010,1,sign,200,ok,true,1.2\n");
        Summary s = Summary.of(jtl);
        assertThat(s.total().count()).isEqualTo(3);
        assertThat(s.subResults().get("sign").get("sign start").count()).isEqualTo(2);
    }

    @Test
    void percentilesAreTheDashboardsOverEveryValue(@TempDir Path dir) throws Exception {
        StringBuilder rows = new StringBuilder(HEADER);
        long[] times = new long[101];
        for (int i = 0; i < 101; i++) {
            times[i] = i < 100 ? i + 1 : 200;
            rows.append(1000 + i).append(',').append(times[i]).append(",s,200,ok,G 1-1,text,true,,1\n");
        }
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, rows);
        Summary.Stats st = Summary.of(jtl).total();
        Percentiles p = Percentiles.of(times, times.length);
        for (double q : Summary.PERCENTILES) {
            assertThat(st.percentile(q)).as("p" + q).isEqualTo(p.get(q));
        }
        assertThat(st.percentile(99)).isCloseTo(198.0, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(st.min()).isEqualTo(1);
        assertThat(st.max()).isEqualTo(200);
        String table = Summary.of(jtl).table(Optional.empty());
        assertThat(table).contains("p50 ms", "p90 ms", "p95 ms", "p99 ms")
                .containsPattern("(?m)^Total +101 .* 198\\.00 +200 ");
    }

    @Test
    void errorsGroupByCodeAndMessageWithoutPerSampleValues(@TempDir Path dir) throws Exception {
        StringBuilder rows = new StringBuilder(HEADER);
        for (int i = 0; i < 24; i++) {
            rows.append(1000 + i).append(",5,ts,untrusted,\"timestamp 2026-11-27T10:11:").append(10 + i)
                    .append(".").append(100 + i).append("Z serial ").append(1234567890L + i * 7919L)
                    .append(" not trusted (token 0x").append(Integer.toHexString(0xa0b1c2 + i))
                            .append(")\",G 1-1,text,false,,1\n");
        }
        rows.append("2000,5,kms,KMS.ClientError,400:InvalidKeyId,G 1-1,text,false,,1\n");
        rows.append("2001,5,kms,KMS.ClientError,404:NotFound,G 1-1,text,false,,1\n");
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, rows);
        Summary s = Summary.of(jtl);
        assertThat(s.topErrors()).hasSize(3);
        Summary.ErrorGroup first = s.topErrors().get(0);
        assertThat(first.count()).isEqualTo(24);
        assertThat(first.key()).isEqualTo("untrusted timestamp <time> serial <n> not trusted (token <hex>)");
        assertThat(first.example()).startsWith("untrusted timestamp 2026-11-27T10:11:10.100Z serial 1234567890");
        assertThat(s.errorTable()).contains("24  untrusted timestamp <time>",
                "e.g. untrusted timestamp 2026-11-27T10:11:10.100Z",
                "1  KMS.ClientError 400:InvalidKeyId", "1  KMS.ClientError 404:NotFound");
        assertThat(Summary.errorKey("connectError Connection refused: 127.0.0.1:389 after 5000 ms, request"
                + " 8f3a2b1c-0d4e-4f5a-9b6c-7d8e9f0a1b2c"))
                .isEqualTo("connectError Connection refused: 127.0.0.1:389 after <n> ms, request <uuid>");
    }

    @Test
    void distributedThreadNamesMatchTheirGroupAndEngine(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, HEADER + "1000,3,s,200,ok,127.0.0.1:20001-Main group 1-1,text,true,,1\n");
        Summary s = Summary.of(jtl);
        assertThat(s.hasThreadsOf("Main group")).isTrue();
        assertThat(s.hasThreadsOfEngine("127.0.0.1:20001")).isTrue();
        assertThat(s.hasThreadsOfEngine("127.0.0.1:20002")).isFalse();
        assertThat(s.threadGroup("Main group").count()).isEqualTo(1);
    }

    @Test
    void readsTheSummarisersFinalLine() {
        String log = """
                summary +      1 in 00:00:10 =    0.1/s Avg:  3784 Min:  3784 Max:  3784 Err:     0 (0.00%) \
                Active: 2 Started: 2 Finished: 0
                summary +      5 in 00:00:02 =    2.6/s Avg:  1276 Min:   471 Max:  3775 Err:     0 (0.00%) \
                Active: 0 Started: 2 Finished: 2
                summary =      6 in 00:01:12 =    0.5/s Avg:  1694 Min:   471 Max:  3784 Err:     2 (33.33%)
                """;
        assertThat(Summary.summariser(log)).contains(new Summary.Summariser(6, 72, 0.5, 2));
        assertThat(Summary.summariser("summary +      3 in 00:00:01 =    3.0/s Avg: 1 Min: 1 Max: 1 Err: 0 (0.00%)"))
                .contains(new Summary.Summariser(3, 1, 3.0, 0));
        assertThat(Summary.summariser("nothing")).isEmpty();
    }
}
