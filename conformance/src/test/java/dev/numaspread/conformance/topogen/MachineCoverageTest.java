package dev.numaspread.conformance.topogen;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every machine class keeps its minimum share of {@link Machines#any()} draws (the table in
 * {@link MachineClass}), so a generator change cannot silently narrow the search.
 */
class MachineCoverageTest {

    @Test
    void everyMachineClass_reachesItsMinimumShare_in2000Draws() {
        MachineStatistics stats = new MachineStatistics();
        for (long seed = 0; seed < 2000; seed++) stats.add(Machines.any().sample(0x70b0_0000L + seed));
        System.out.print(stats.table());
        assertEquals(java.util.List.of(), stats.belowMinimum(), stats.table());
        assertEquals(2000, stats.machines());
    }
}
