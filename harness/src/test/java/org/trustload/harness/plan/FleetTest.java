package org.trustload.harness.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The plan's arithmetic: the utilisation law, the ceiling, rounding up, spares, engines, scaling between two sizes. */
class FleetTest {

    private static final Offset<Double> CLOSE = Offset.offset(1e-6);

    private static Workload workload(String text) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return Workload.parse(p, Path.of("/w.properties"), null);
    }

    /** A report of a server of {@code cpus} CPUs: CPU ms/op at low load and knee, capacity, CPU-limited or not. */
    private static Measured report(int cpus, double low, double knee, double capacity, boolean cpu, double clientMs) {
        return new Measured(Path.of("/r/" + cpus + "/sizing.json"), "p", "requests", "p99<=1s", cpus, low, knee,
                clientMs, 1,
                capacity, "server", cpu ? "the server's CPU (99% of 1 CPU at the knee)"
                        : "the server (p99) with its CPU at 60%:"
                + " a limit other than CPU (threads, locks, I/O, throttling)", 1, "2026-12-07T06:30:00Z",
                "load average 1", true);
    }

    @Test
    void aCpuBoundServerOfKnownCostIsPlannedByTheUtilisationLaw() throws Exception {
        Workload w = workload("target = 300/s\noperations = web\nop.web.plan = http/http-100x10\nop.web.share = 100%\n"
                + "op.web.slo = p99<=2s\n");
        Fleet f = Fleet.of(w, Map.of("web", List.of(report(1, 4.1, 4.0, 244, true, 0.3))));
        Fleet.Line l = f.lines().get(0);
        assertThat(l.demandMs()).as("the higher of low load and the knee").isEqualTo(4.1);
        assertThat(l.cpuRate()).isCloseTo(1000 / 4.1, CLOSE);
        assertThat(l.perServer()).as("70% of the lower of CPU and objective").isCloseTo(0.7 * 1000 / 4.1, CLOSE);
        assertThat(f.busyCpus()).isCloseTo(300 * 4.1 / 1000, CLOSE);
        assertThat(f.cpusAtCeiling()).isCloseTo(300 * 4.1 / 1000 / 0.7, CLOSE);
        assertThat(f.servers()).as("ceil(1.76)").isEqualTo(2);
        assertThat(f.total()).as("N+1").isEqualTo(3);
        assertThat(f.engines()).as("0.09 CPUs of load generator").isEqualTo(1);
        assertThat(f.perServerRate()).isEqualTo(150);
        assertThat(f.predictedUtilisation()).isCloseTo(150 * 4.1 / 1000, CLOSE);
        assertThat(f.predictedClientCpus()).isCloseTo(150 * 0.3 / 1000, CLOSE);
        assertThat(f.text()).contains("Servers: 3 of 1 CPU (2 for the target + 1 spare), 3 CPUs",
                "servers of 1 CPU: ceil(300/171) = ceil(1.76) = 2; + 1 spare = 3 servers (3 CPUs)",
                "server CPUs busy at the target: 300/s x 4.10 ms = 1.23 CPUs",
                        "at the 70% ceiling: 1.23 / 0.70 = 1.76 CPUs",
                "N servers serve N times one server");
    }

    @Test
    void aMixAddsEachOperationsShareOfAServerAndAnObjectiveBelowTheCpuBinds() throws Exception {
        Workload w = workload("target = 6000/min\noperations = cades, pades, login\nslo = p95<=2s\n"
                + "op.cades.plan = pki/cades\nop.cades.share = 60%\nop.pades.plan = pki/pades\nop.pades.share = 30%\n"
                + "op.login.plan = pki/certificate-login\nop.login.share = 10%\nspares = 2\n");
        Fleet f = Fleet.of(w, Map.of("cades", List.of(report(1, 11, 10, 85, true, 9)),
                "pades", List.of(report(1, 20, 19, 45, true, 12)), "login", List.of(report(1, 3, 3, 150, false, 2))));
        assertThat(f.lines().get(0).perServer()).as("85/s at the objective, below 90.9 at 100% CPU").isCloseTo(0.7 * 85,
                CLOSE);
        assertThat(f.lines().get(2).perServer()).as("login's objective binds at half its CPU").isCloseTo(0.7 * 150,
                CLOSE);
        double shares = 60 / (0.7 * 85) + 30 / (0.7 * 45) + 10 / (0.7 * 150);
        assertThat(f.serverShares()).isCloseTo(shares, CLOSE);
        assertThat(f.servers()).as("ceil(%.3f)", shares).isEqualTo(3);
        assertThat(f.total()).isEqualTo(5);
        assertThat(f.busyCpus()).isCloseTo((60 * 11 + 30 * 20 + 10 * 3) / 1000.0, CLOSE);
        assertThat(f.clientCpus()).isCloseTo((60 * 9 + 30 * 12 + 10 * 2) / 1000.0, CLOSE);
        assertThat(f.engines()).as("0.92 CPUs at 70% of 1-CPU engines").isEqualTo(2);
        assertThat(f.assumptions()).anyMatch(a -> a.startsWith("login: its objective binds below its CPU"));
    }

    @Test
    void twoSizesGiveAScalingEfficiencyThatPlansALargerServer() throws Exception {
        assertThat(Fleet.efficiency(100, 1, 180, 2)).isCloseTo(0.8, CLOSE);
        assertThat(Fleet.efficiency(100, 2, 100, 4)).as("no gain").isCloseTo(0, CLOSE);
        assertThat(Fleet.efficiency(100, 1, 100, 1)).as("one size").isNaN();
        assertThat(Fleet.scale(4, 2, 0.8)).isCloseTo(1.8, CLOSE);
        assertThat(Fleet.scale(4, 2, Double.NaN)).as("linear").isCloseTo(2, CLOSE);
        Workload w = workload("target = 500/s\noperations = cades\nop.cades.plan = pki/cades\nop.cades.share = 100%\n"
                + "op.cades.slo = p95<=2s\nserver.cpus = 4\n");
        Measured one = report(1, 11, 11, 85, true, 9);
        Measured two = report(2, 13, 13, 153, true, 9);
        Fleet f = Fleet.of(w, Map.of("cades", List.of(one, two)));
        Fleet.Line l = f.lines().get(0);
        assertThat(l.ref()).as("the larger server").isSameAs(two);
        assertThat(l.efficiency()).isCloseTo(0.8, CLOSE);
        assertThat(l.demandMs()).as("13 ms x 4/2 / 1.8").isCloseTo(13 * 2 / 1.8, CLOSE);
        assertThat(l.objectiveRate()).isCloseTo(153 * 1.8, CLOSE);
        assertThat(f.serverCpus()).isEqualTo(4);
        assertThat(f.text()).contains("scaling efficiency (153/85.0 - 1) / (2/1 - 1) = 0.80");
    }

    @Test
    void oneSizeMeasuredIsSaidToBeALinearExtrapolation() throws Exception {
        Workload w = workload("target = 100/s\noperations = a\nop.a.plan = x\nop.a.share = 100%\nop.a.slo = p99<=1s\n"
                + "server.cpus = 8\n");
        Fleet f = Fleet.of(w, Map.of("a", List.of(report(2, 5, 5, 380, true, 1))));
        assertThat(f.lines().get(0).demandMs()).as("linear: the same CPU per operation").isCloseTo(5, CLOSE);
        assertThat(f.assumptions()).anyMatch(a -> a.contains("measured at 2 CPUs only: a server of 8 CPUs is a linear"
                + " extrapolation (4 x the throughput)"));
    }
}
