package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Recorder;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The literal form of a machine says every generated machine, and its removals are what they say. */
class MachineCodeTest {

    static Topology readBack(int[] body) {
        return Recorder.replaying(body).draw((Gen<Topology>) MachineCode::read);
    }

    @Test
    void everyGeneratedMachine_readsBackFromItsLiteralForm() {
        int encoded = 0;
        for (long seed = 0; seed < 400; seed++) {
            Topology m = Machines.any().sample(seed);
            Optional<MachineCode.Shape> s = MachineCode.shapeOf(m);
            assertTrue(s.isPresent(), () -> "not encodable:\n" + TopoFormat.write(m));
            Topology back = readBack(MachineCode.write(s.get()));
            long sd = seed;
            assertTrue(back.sameMachineAs(m), () -> "seed " + sd + ":\n" + TopoFormat.write(m) + "\nread back as\n" + TopoFormat.write(back));
            encoded++;
        }
        assertEquals(400, encoded);
    }

    @Test
    void allZeroLiteralForm_isOneNodeWithOneOnlineCpu() {
        Topology m = readBack(new int[0]);
        MachinesTest.assertOneNodeOneCpu(m);
    }

    @Test
    void removals_ofSmtCores_takeWholeCoresThenThreads() {
        // one node, cores {0,2} {1,3} (split numbering)
        Topology m = dev.numaspread.model.topology.TopologyBuilder.machine("m").node(0, "0-3").siblings("0,2", "1,3").build();
        List<MachineCode.Shape> r = MachineCode.removals(MachineCode.shapeOf(m).orElseThrow());
        // two cores, so halves are single cores: core {1,3}, core {0,2}; then each of the four threads
        assertEquals(6, r.size());
        Topology secondCoreGone = MachineCode.build(r.get(0)).orElseThrow();
        assertEquals(List.of(CpuSet.of(0, 1)), secondCoreGone.smtSiblings());
        Topology lastThreadGone = MachineCode.build(r.get(2)).orElseThrow();
        assertEquals(List.of(CpuSet.of(0, 2), CpuSet.of(1)), lastThreadGone.smtSiblings());
        Topology firstThreadGone = MachineCode.build(r.get(5)).orElseThrow();   // cpu 0 gone: the others move down
        assertEquals(List.of(CpuSet.of(0, 2), CpuSet.of(1)), firstThreadGone.smtSiblings());
    }

    @Test
    void removingACpu_movesTheCpusAboveItDownOneId() {
        // node 0: 0-1, node 1: 2-3, siblings {0,2} {1,3} (split numbering)
        Topology m = dev.numaspread.model.topology.TopologyBuilder.machine("m").node(0, "0-1").node(1, "2-3")
                .siblings("0,1", "2,3").pkg(0, "0-1").pkg(1, "2-3").build();
        MachineCode.Shape s = MachineCode.shapeOf(m).orElseThrow();
        boolean[] drop = {false, true, false, false};
        Topology less = MachineCode.build(MachineCode.withoutCpus(s, drop)).orElseThrow();
        assertEquals(CpuSet.range(0, 2), less.possible());
        assertEquals(CpuSet.of(0), less.cpusOf(0));
        assertEquals(CpuSet.range(1, 2), less.cpusOf(1));
        assertEquals(List.of(CpuSet.of(0), CpuSet.range(1, 2)), less.smtSiblings());
    }

    @Test
    void removals_ofTwoNodesTwoCpusEach_areNodesThenHalvesThenCores() {
        Topology m = dev.numaspread.model.topology.TopologyBuilder.machine("m").node(0, "0-1").node(1, "2-3").build();
        List<MachineCode.Shape> r = MachineCode.removals(MachineCode.shapeOf(m).orElseThrow());
        // two node removals, two halves (cores 2-3, cores 0-1), four single cores; no SMT: no thread removals
        assertEquals(8, r.size());
        Topology upperHalfGone = MachineCode.build(r.get(2)).orElseThrow();
        assertEquals(CpuSet.range(0, 1), upperHalfGone.possible());
        assertTrue(upperHalfGone.isCpuless(1));
        Topology firstNodeGone = MachineCode.build(r.get(1)).orElseThrow();
        assertEquals(1, firstNodeGone.nodes().size());
        assertEquals(1, firstNodeGone.nodes().get(0).id());   // the id stays: a hole the shrinker may close
        assertEquals(CpuSet.range(0, 1), firstNodeGone.possible());
    }
}
