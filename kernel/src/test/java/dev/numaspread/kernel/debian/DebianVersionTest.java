package dev.numaspread.kernel.debian;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DebianVersionTest {

    // Pairs in ascending order, as dpkg --compare-versions orders them (checked on a Debian 12 machine).
    @Test
    void ordersAsDpkgDoes() {
        List<String[]> ascending = List.of(
                new String[]{"6.12.117-1~deb12u1", "6.12.117-1"},
                new String[]{"7.3.4-1~bpo13+1", "7.3.4-1"},
                new String[]{"6.12.95-1", "6.12.107-1"},
                new String[]{"6.1.176-1", "6.1.192-3"},
                new String[]{"1.0~rc1", "1.0"},
                new String[]{"1.0", "1.0+b1"},
                new String[]{"1.0", "1.0a"},
                new String[]{"1.0a", "1.0+"},
                new String[]{"9:1.0", "10:0.1"},
                new String[]{"2:1.0", "10:0"},
                new String[]{"1.2.3", "1:0"},
                new String[]{"1.002", "1.3"},
                new String[]{"1.0-1", "1.0-1.1"},
                new String[]{"7.2.9+deb13", "7.2.13+deb14"});
        for (String[] p : ascending) {
            assertEquals(-1, Integer.signum(DebianVersion.compare(p[0], p[1])), p[0] + " < " + p[1]);
            assertEquals(1, Integer.signum(DebianVersion.compare(p[1], p[0])), p[1] + " > " + p[0]);
        }
        assertEquals(0, DebianVersion.compare("1.01", "1.1"));
        assertEquals(0, DebianVersion.compare("0:1.0", "1.0"));
        assertEquals(0, DebianVersion.compare("1.0-0", "1.0"));
    }

    @Test
    void sortsTheReleasesOfOneSeries() {
        List<String> v = new ArrayList<>(List.of("6.12.117-1", "6.12.95-1~deb12u1", "6.12.117-1~deb12u1", "6.12.107-1"));
        v.sort(DebianVersion.ORDER);
        assertEquals(List.of("6.12.95-1~deb12u1", "6.12.107-1", "6.12.117-1~deb12u1", "6.12.117-1"), v);
    }

    @Test
    void upstreamDropsEpochAndRevision() {
        assertEquals("7.3.4", DebianVersion.upstream("7.3.4-1~bpo13+1"));
        assertEquals("1.2.3.4", DebianVersion.upstream("1:1.2.3.4"));
        assertEquals("2.36", DebianVersion.upstream("2.36-9+deb12u14"));
        assertEquals("6.1.192", DebianVersion.upstream("6.1.192-3"));
    }
}
