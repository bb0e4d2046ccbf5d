package dev.numaspread.kernel.guest;

import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProbeAnswersTest {

    @Test
    void listsUseADotForTheEmptySet() {
        assertEquals(".", ProbeAnswers.list(CpuSet.EMPTY));
        assertEquals("0-3,8", ProbeAnswers.list(CpuSet.parseList("0-3,8")));
        assertEquals(CpuSet.EMPTY, ProbeAnswers.parseList("."));
    }

    @Test
    void numbersAndMasks() {
        assertArrayEquals(new int[]{2, 3, 0, 1}, ProbeAnswers.ints(ProbeAnswers.body("ls 1 4", "ok 2 3 0 1")));
        assertArrayEquals(new int[0], ProbeAnswers.ints(ProbeAnswers.body("lvl", "ok")));
        assertEquals(List.of(CpuSet.parseList("2-3"), CpuSet.EMPTY, CpuSet.parseList("0-3")), ProbeAnswers.masks("2-3|.|0-3"));
    }

    @Test
    void groupsWithTheirNummasksOrNull() {
        ProbeAnswers.Groups g = ProbeAnswers.groups("2 2-3|0-1|.");
        assertEquals(Optional.of(List.of(CpuSet.parseList("2-3"), CpuSet.parseList("0-1"), CpuSet.EMPTY)), g.masks());
        assertEquals(OptionalInt.of(2), g.nummasks());
        assertEquals(new ProbeAnswers.Groups(Optional.empty(), OptionalInt.empty()), ProbeAnswers.groups("null"));
    }

    @Test
    void affinityDescriptorsCarryTheManagedFlag() {
        assertEquals(Optional.of(List.of(new AffinityDesc(CpuSet.parseList("0-3"), false), new AffinityDesc(CpuSet.of(3), true))),
                ProbeAnswers.affinity("0-3/u|3/m"));
        assertEquals(Optional.empty(), ProbeAnswers.affinity("null"));
        assertEquals("irq 6 1 1 2 2 2", ProbeAnswers.affinityRequest(6, 1, 1, List.of(2, 2)));
        assertEquals("irq 5 1 0 0", ProbeAnswers.affinityRequest(5, 1, 0, List.of()));
    }

    @Test
    void haveNamesTheCallsAndValues() {
        ProbeAnswers.Have h = ProbeAnswers.have("release=6.1.0-57-amd64 nr_cpu_ids=8 nr_node_ids=2 ls lvl closest closest-prev grp mq irq");
        assertEquals("6.1.0-57-amd64", h.values().get("release"));
        assertEquals(true, h.calls().get(Guest.Call.GROUP_CPUS));
        assertEquals(false, h.calls().get(Guest.Call.HOP_MASKS));
        assertEquals(true, h.calls().get(Guest.Call.NUMA_CLOSEST));
        assertEquals(Guest.Call.values().length, ProbeAnswers.CALL_WORDS.size());
    }

    @Test
    void errorsSayWhoseFaultItIs() {
        assertEquals("the probe refused 'hop 9': hop NODE with an online node",
                assertThrows(IllegalArgumentException.class, () -> ProbeAnswers.body("hop 9", "err invalid: hop NODE with an online node")).getMessage());
        assertThrows(UnsupportedOperationException.class, () -> ProbeAnswers.body("hop 0", "err unsupported: hop"));
        assertEquals("cpu 0: taking it offline: Device or resource busy",
                assertThrows(CannotBuild.class, () -> ProbeAnswers.body("online 1-3", "err refused: cpu 0: taking it offline: Device or resource busy"))
                        .getMessage());
        assertTrue(assertThrows(GuestFailure.class, () -> ProbeAnswers.body("mq 2 0", "err internal: out of memory")).getMessage()
                .startsWith("the probe failed on 'mq 2 0'"));
    }

    @Test
    void aSnapshotPayloadHoldsFilesAndLinks() {
        byte[] p = "F sys/devices/system/cpu/online 4\n0-3\nL sys/devices/system/cpu/cpu3/node1 ../../node/node1\nF proc/x 0\n"
                .getBytes(StandardCharsets.UTF_8);
        List<Tar.Entry> e = ProbeAnswers.snapshot(p);
        assertEquals(3, e.size());
        assertEquals("0-3\n", ((Tar.File) e.get(0)).text());
        assertEquals(new Tar.Link("sys/devices/system/cpu/cpu3/node1", "../../node/node1"), e.get(1));
        assertEquals("", ((Tar.File) e.get(2)).text());
        assertTrue(assertThrows(GuestFailure.class, () -> ProbeAnswers.snapshot("F a 9\nxy".getBytes(StandardCharsets.UTF_8)))
                .getMessage().contains("cut short"));
    }
}
