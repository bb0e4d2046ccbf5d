package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared steps fill the scenario's World; the parameter types read kernel notation. */
class MachineStepsTest {

    @Test
    void inlineMachineAndReleaseLandInTheWorld() {
        World world = new World();
        MachineSteps steps = new MachineSteps(world);
        ParameterTypes types = new ParameterTypes();
        steps.theMachineInline(types.topo("""
                topology two-nodes
                available: 2 nodes (0-1)
                node 0 cpus: 0 1
                node 0 size: 512 MB
                node 1 cpus: 2 3
                node 1 size: 512 MB
                node distances:
                node   0   1
                  0:  10  21
                  1:  21  10
                """));
        steps.linux(types.kernel("6.1"));
        assertEquals(CpuSet.of(2, 3), world.machine().onlineCpusOf(1));
        assertEquals(21, world.machine().distances().distance(1, 0));
        assertEquals(KernelRelease.of(6, 1), world.kernel());
    }

    @Test
    void parameterTypesSpeakKernelNotation() {
        ParameterTypes types = new ParameterTypes();
        assertEquals(CpuSet.parseList("0-7,128-135"), types.cpulist("0-7,128-135"));
        assertEquals(16, types.cpulist("0-7,128-135").size());
        assertEquals(KernelRelease.of(6, 12), types.kernel("v6.12"));
    }

    @Test
    void aScenarioWithoutMachineSaysWhichStepIsMissing() {
        World world = new World();
        IllegalStateException e = assertThrows(IllegalStateException.class, world::machine);
        assertTrue(e.getMessage().contains("'Given the machine \"NAME\"'"), e.getMessage());
        assertEquals(KernelRelease.NEWEST, world.kernel());
    }

    @Test
    void resultsAndErrorsReplaceEachOther() {
        World world = new World();
        world.result(CpuSet.of(4));
        assertEquals(CpuSet.of(4), world.result(CpuSet.class));
        world.error(new IllegalArgumentException("bad node"));
        assertEquals("bad node", world.error().orElseThrow().getMessage());
        assertThrows(IllegalStateException.class, () -> world.result(CpuSet.class));
        world.result(7);
        assertTrue(world.error().isEmpty());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.result(CpuSet.class));
        assertEquals("the last result is a Integer; expected a CpuSet", e.getMessage());
    }
}
