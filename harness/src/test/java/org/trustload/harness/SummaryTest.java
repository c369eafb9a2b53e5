package org.trustload.harness;

import org.trustload.common.Percentiles;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes\n";

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
                + "2000,5,connect,200,ok,T 1-1,text,true,,1\n"
                + "2005,5,search,200,ok,T 1-1,text,true,,1\n"
                + "2000,10,ldap 1,200,\"Number of samples in transaction : 2, number of failing samples : 0\",T 1-1,,true,,2\n");
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
        assertThat(table).contains("  - sign start", "transaction (not in Total): ldap 1", "\n  connect");
    }

    private static final String EXACT_HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,trustload_event\n";

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
                + "2000,10,tx,200,\"Number of samples in transaction : 2, number of failing samples : 0\",G 1-2,,true,,2,2\n"
                + "2000,5,connect,200,ok,G 1-2,text,true,,1,2\n"
                + "2005,5,search,200,ok,G 1-2,text,true,,1,2\n"
                + "2010,0,search,200,ok,G 1-2,text,true,,1,3\n");
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
        assertThat(table).contains("p50 ms", "p90 ms", "p95 ms", "p99 ms").containsPattern("(?m)^Total +101 .* 198\\.00 +200 ");
    }

    @Test
    void errorsGroupByCodeAndMessageWithoutPerSampleValues(@TempDir Path dir) throws Exception {
        StringBuilder rows = new StringBuilder(HEADER);
        for (int i = 0; i < 24; i++) {
            rows.append(1000 + i).append(",5,ts,untrusted,\"timestamp 2026-11-27T10:11:").append(10 + i)
                    .append(".").append(100 + i).append("Z serial ").append(1234567890L + i * 7919L)
                    .append(" not trusted (token 0x").append(Integer.toHexString(0xa0b1c2 + i)).append(")\",G 1-1,text,false,,1\n");
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
        assertThat(s.errorTable()).contains("24  untrusted timestamp <time>", "e.g. untrusted timestamp 2026-11-27T10:11:10.100Z",
                "1  KMS.ClientError 400:InvalidKeyId", "1  KMS.ClientError 404:NotFound");
        assertThat(Summary.errorKey("connectError Connection refused: 127.0.0.1:389 after 5000 ms, request 8f3a2b1c-0d4e-4f5a-9b6c-7d8e9f0a1b2c"))
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
                summary +      1 in 00:00:10 =    0.1/s Avg:  3784 Min:  3784 Max:  3784 Err:     0 (0.00%) Active: 2 Started: 2 Finished: 0
                summary +      5 in 00:00:02 =    2.6/s Avg:  1276 Min:   471 Max:  3775 Err:     0 (0.00%) Active: 0 Started: 2 Finished: 2
                summary =      6 in 00:01:12 =    0.5/s Avg:  1694 Min:   471 Max:  3784 Err:     2 (33.33%)
                """;
        assertThat(Summary.summariser(log)).contains(new Summary.Summariser(6, 72, 0.5, 2));
        assertThat(Summary.summariser("summary +      3 in 00:00:01 =    3.0/s Avg: 1 Min: 1 Max: 1 Err: 0 (0.00%)"))
                .contains(new Summary.Summariser(3, 1, 3.0, 0));
        assertThat(Summary.summariser("nothing")).isEmpty();
    }
}
