package dev.numaspread.conformance.comparison;

import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.model.cpu.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Releases side by side: the blk-mq maps 6.1 and 6.12 printed for 3 queues on a-2node-2s2c2t (fixtures/kernel-runs). */
class ReleaseColumnsTest {

    static Placement plan(String title, String... queues) {
        return new Placement(title, "queue", java.util.Arrays.stream(queues).map(CpuSet::parseList).toList());
    }

    @Test
    void rowsThatDifferAreMarked() {
        List<Placement> plans = List.of(plan("6.1", "0,4-5", "1,6-7", "2-3"), plan("6.12", "4-7", "0-1", "2-3"));
        assertEquals(List.of(0, 1), ReleaseColumns.differingRows(plans));
        assertEquals(String.join("\n",
                "queue  6.1    6.12",
                "0      0,4-5  4-7   <> differs",
                "1      1,6-7  0-1   <> differs",
                "2      2-3    2-3",
                "2 of 3 queues differ between 6.1 and 6.12",
                ""), ReleaseColumns.text("queue", plans));
    }

    @Test
    void aMissingRowAndThreeReleases() {
        List<Placement> plans = List.of(plan("6.1", "0", "1"), plan("6.12", "0", "1"), plan("7.3", "0", "1", "2"));
        assertEquals(List.of(2), ReleaseColumns.differingRows(plans));
        assertEquals("1 of 3 queues differ between 6.1, 6.12 and 7.3", ReleaseColumns.text("queue", plans).lines().reduce((a, b) -> b).orElseThrow());
        assertEquals("every queue is the same in 6.1 and 6.12",
                ReleaseColumns.text("queue", plans.subList(0, 2)).lines().reduce((a, b) -> b).orElseThrow());
    }
}
