package org.trustload.lab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabPortsTest {

    private static final LabPorts.Range LINUX_DEFAULT = new LabPorts.Range(32768, 60999);

    @Test
    void aBaseWhosePortsReachTheEphemeralRangeIsRefusedWithTheRangeNamed() {
        assertThat(LabPorts.check(23768, LINUX_DEFAULT)).as("23768 + 8999 = 32767").isEmpty();
        assertThat(LabPorts.check(10000, LINUX_DEFAULT)).isEmpty();
        LabPorts.Problem p = LabPorts.check(23769, LINUX_DEFAULT).orElseThrow();
        assertThat(p.refuse()).isTrue();
        assertThat(p.message()).contains("--port-base 23769", "32768–60999", "/proc/sys/net/ipv4/ip_local_port_range",
                "use a base of at most 23768");
        assertThat(LabPorts.check(41000, LINUX_DEFAULT).orElseThrow().refuse()).isTrue();
    }

    @Test
    void aRangeThatLeavesNoRoomOnlyWarns() {
        LabPorts.Problem p = LabPorts.check(10000, new LabPorts.Range(1024, 65535)).orElseThrow();
        assertThat(p.refuse()).isFalse();
        assertThat(p.message()).contains("1024–65535", "nothing avoids it");
    }

    @Test
    void aRangeLeavingRoomAboveSuggestsABaseAboveIt() {
        LabPorts.Problem p = LabPorts.check(1000, new LabPorts.Range(1000, 20000)).orElseThrow();
        assertThat(p.refuse()).isTrue();
        assertThat(p.message()).contains("use a base of at least 20001");
    }

    @Test
    void freeBasesLieBelowTheEphemeralRange() {
        int highest = LabPorts.highestBaseBelow(LabPorts.ephemeralRange());
        for (int i = 0; i < 5; i++) {
            assertThat(LabPorts.freeBase()).isBetween(LabPorts.LOWEST_FREE_BASE, highest);
        }
    }
}
