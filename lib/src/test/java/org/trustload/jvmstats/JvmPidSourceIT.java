package org.trustload.jvmstats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The jvm-pid and process sources against jstat and ps on JVMs this test starts. */
class JvmPidSourceIT {

    /** Reads ours, then jstat, then ours again: jstat's figure must lie between (or equal) ours. */
    @Test
    void jvmPidColumnsAreWhatJstatGcPrints() throws Exception {
        for (String gc : List.of("-XX:+UseG1GC", "-XX:+UseSerialGC", "-XX:+UseParallelGC")) {
            try (ChildJvm child = ChildJvm.start("idle", gc);
                 JvmPidSource src = new JvmPidSource(SourceConfig.of(Long.toString(child.pid())))) {
                assertThat(src.usesPerfData()).isTrue();
                JstatGc before = src.poll().jstat();
                List<String> out = ChildJvm.run("jstat", "-gc", Long.toString(child.pid()));
                JstatGc after = src.poll().jstat();
                List<String> header = List.of(out.get(0).trim().split("\\s+"));
                List<String> row = List.of(out.get(1).trim().split("\\s+"));
                assertThat(header).as(gc).containsExactlyElementsOf(JstatGc.COLUMNS);
                for (int i = 0; i < header.size(); i++) {
                    String c = header.get(i);
                    String printed = row.get(i);
                    if (before.format(c).equals(after.format(c))) {
                        assertThat(printed).as(gc + " " + c).isEqualTo(before.format(c));
                    } else {
                        // a counter moved between the reads (an idle JVM still allocates a little)
                        double v = Double.parseDouble(printed);
                        assertThat(v).as(gc + " " + c).isBetween(Math.min(before.get(c), after.get(c)) - 0.05,
                                Math.max(before.get(c), after.get(c)) + 0.05);
                    }
                }
                assertThat(before.get("YGC") + before.get("FGC")).as(gc + ": System.gc() ran")
                        .isGreaterThanOrEqualTo(1);
            }
        }
    }

    @Test
    void processCpuRssAndThreadsMatchPs() throws Exception {
        try (ChildJvm child = ChildJvm.start("burn")) {
            String pid = Long.toString(child.pid());
            ProcessSource src = new ProcessSource(child.pid());
            Thread.sleep(2000);
            StatsSnapshot a = src.poll();
            List<String> ps = ChildJvm.run("ps", "-o", "cputime=,rss=,nlwp=", "-p", pid);
            StatsSnapshot b = src.poll();
            String[] f = ps.get(0).trim().split("\\s+");
            double psCpuMs = hms(f[0]);
            // ps truncates to whole seconds
            assertThat(psCpuMs).isBetween(Math.floor(a.cpuMs() / 1000) * 1000, b.cpuMs());
            assertThat(a.cpuMs()).as("the child burned CPU").isGreaterThan(100);
            assertThat(Long.parseLong(f[1]) * 1024.0).isCloseTo((double) a.rssBytes(), within(a.rssBytes() * 0.2));
            assertThat(Long.parseLong(f[2])).isBetween(a.threads() - 2, a.threads() + 2);
            assertThat(a.openFiles()).isGreaterThan(2);
            JvmPidSource jvm = new JvmPidSource(SourceConfig.of(pid));
            StatsSnapshot c = jvm.poll();
            assertThat(c.cpuMs()).isGreaterThanOrEqualTo(b.cpuMs());
            assertThat(c.youngGcCount()).isGreaterThanOrEqualTo(1);
            jvm.close();
        }
    }

    @Test
    void aTargetThatExitsIsReportedAsGone() throws Exception {
        ChildJvm child = ChildJvm.start("idle");
        JvmPidSource jvm = new JvmPidSource(SourceConfig.of(Long.toString(child.pid())));
        ProcessSource proc = new ProcessSource(child.pid());
        assertThat(jvm.poll().youngGcCount()).isGreaterThanOrEqualTo(0);
        proc.poll();
        child.close();
        assertThatThrownBy(jvm::poll).isInstanceOfSatisfying(StatsException.class, e -> assertThat(e.isGone()).isTrue())
                .hasMessageContaining("exited");
        assertThatThrownBy(proc::poll)
                .isInstanceOfSatisfying(StatsException.class, e -> assertThat(e.isGone()).isTrue());
        assertThatThrownBy(() -> new ProcessSource(child.pid())).isInstanceOf(StatsException.class)
                .hasMessageContaining("no process");
    }

    @Test
    void withoutHsperfdataItAttachesAndReadsJmx() throws Exception {
        try (ChildJvm child = ChildJvm.start("idle", "-XX:-UsePerfData");
             JvmPidSource src = new JvmPidSource(new SourceConfig(Long.toString(child.pid()), "", "", 20000, 10000))) {
            assertThat(src.usesPerfData()).isFalse();
            assertThat(src.describe()).contains("attach + JMX");
            StatsSnapshot s = src.poll();
            assertThat(s.jstat()).isNull();
            assertThat(s.youngGcCount() + s.fullGcCount()).isGreaterThanOrEqualTo(1);
            assertThat(s.cpuMs()).isGreaterThan(0);
            assertThat(s.heapUsedBytes()).isGreaterThan(0);
        }
    }

    @Test
    void jmxAndHsperfdataAgreeOnG1Counts() throws Exception {
        try (ChildJvm child = ChildJvm.start("idle", "-XX:+UseG1GC");
             JvmPidSource perf = new JvmPidSource(SourceConfig.of(Long.toString(child.pid())))) {
            JmxSource jmx = new JmxSource(new javax.management.remote.JMXServiceURL(attachUrl(child.pid())),
                    new SourceConfig("", "", "", 20000, 10000));
            StatsSnapshot p = perf.poll();
            StatsSnapshot j = jmx.poll();
            jmx.close();
            assertThat(j.fullGcCount()).isEqualTo(p.fullGcCount());
            assertThat(j.youngGcCount()).isBetween(p.youngGcCount(), p.youngGcCount() + 1);
        }
    }

    static String attachUrl(long pid) throws Exception {
        com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid));
        try {
            return vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
    }

    @Test
    void badPidsAreConfigurationErrors() {
        for (String bad : List.of("", "abc", "-5", "0")) {
            assertThatThrownBy(() -> StatsSources.open("jvm-pid", SourceConfig.of(bad)))
                    .isInstanceOfSatisfying(StatsException.class, e -> assertThat(e.isGone()).isFalse())
                    .hasMessageContaining("not a process id");
        }
    }

    static double hms(String s) {
        String[] p = s.split("[-:]");
        double secs = 0;
        for (String x : p.length == 4
                ? new String[] {String.valueOf(Long.parseLong(p[0]) * 24 + Long.parseLong(p[1])), p[2], p[3]} : p) {
            secs = secs * 60 + Long.parseLong(x);
        }
        return secs * 1000;
    }
}
