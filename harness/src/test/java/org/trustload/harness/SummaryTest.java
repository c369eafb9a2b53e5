package org.trustload.harness;

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
        assertThat(s.topErrors()).singleElement().satisfies(e -> {
            assertThat(e.getKey()).isEqualTo("500 Internal, error");
            assertThat(e.getValue()).isEqualTo(1);
        });
        assertThat(s.hasThreadsOf("G")).isTrue();
        assertThat(s.hasThreadsOf("setUp")).isFalse();

        String table = s.table(Optional.of(new Summary.Summariser(5, 2, 2.5, 1)));
        assertThat(table).containsPattern("(?m)^Total +5 +1 +20\\.00% .* 2\\.50$");
        assertThat(table).contains("  - sign start", "transaction (not in Total): ldap 1", "\n  connect");
    }

    @Test
    void distributedThreadNamesMatchTheirGroupAndEngine(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("results.jtl");
        Files.writeString(jtl, HEADER + "1000,3,s,200,ok,127.0.0.1:20001-Main group 1-1,text,true,,1\n");
        Summary s = Summary.of(jtl);
        assertThat(s.hasThreadsOf("Main group")).isTrue();
        assertThat(s.hasThreadsOfEngine("127.0.0.1:20001")).isTrue();
        assertThat(s.hasThreadsOfEngine("127.0.0.1:20002")).isFalse();
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
