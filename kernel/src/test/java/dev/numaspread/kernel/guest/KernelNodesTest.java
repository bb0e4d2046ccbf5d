package dev.numaspread.kernel.guest;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The booted machine takes the node of each CPU that is not online from the kernel's own
 * {@code cpu_to_node()} (the probe's {@code nodes}): sysfs does not list such a CPU, and 6.1.192
 * put CPUs 5 and 7 of this machine (not present; SRAT: node 0) in node 1, CPU 6 in node 0, its
 * group_cpus_evenly(2) giving 0,2,4,6 | 1,3,5,7 accordingly.
 */
class KernelNodesTest {

    static final Topology ASKED = TopoFormat.read("""
            topology nodes
            possible 0-7
            present 0-4
            node-of 5,7 0
            node-of 6 1
            available: 2 nodes (0-1)
            node 0 cpus: 0 2 4
            node 1 cpus: 1 3
            node distances:
            node   0   1
              0:  10  16
              1:  16  10
            """, "nodes.topo").topology();

    @Test
    void cpusThatAreNotOnlineGoWhereTheKernelPutThem() {
        Topology booted = QemuGuest.withKernelNodes(ASKED, "0:0 1:1 2:0 3:1 4:0 5:1 6:0 7:1");
        assertEquals(CpuSet.parseList("0,2,4,6"), booted.cpusOf(0));
        assertEquals(CpuSet.parseList("1,3,5,7"), booted.cpusOf(1));
        assertEquals(ASKED.online(), booted.online());
    }

    @Test
    void aMachineTheKernelAgreesWithIsKept() {
        assertSame(ASKED, QemuGuest.withKernelNodes(ASKED, "0:0 1:1 2:0 3:1 4:0 5:0 6:1 7:0"));
    }
}
