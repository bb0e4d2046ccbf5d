package dev.numaspread.kernel.guest;

import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QemuMachineTest {

    static Topology topo(String text) {
        return TopoFormat.read(text, "t.topo").topology();
    }

    static final QemuMachine.Boot BOOT = new QemuMachine.Boot("qemu-system-x86_64", Path.of("/k/vmlinuz"), Path.of("/k/initramfs.cpio.gz"),
            Path.of("/tmp/g/channel"), "console=ttyS0", false);

    static String line(Topology t) {
        return QemuMachine.shellLine(QemuMachine.of(t).arguments(BOOT));
    }

    static final String TWO_SOCKETS = """
            possible 0-7
            siblings 0-1 2-3 4-5 6-7
            package 0 cpus 0-3
            package 1 cpus 4-7
            available: 2 nodes (0-1)
            node 0 cpus: 0 1 2 3
            node 1 cpus: 4 5 6 7
            node distances:
            node   0   1
              0:  10  21
              1:  21  10
            """;

    @Test
    void twoSocketsOfTwoCoresOfTwoThreads() {
        assertEquals("qemu-system-x86_64 -machine q35 -nodefaults -no-user-config -accel tcg,thread=single -cpu qemu64,vendor=GenuineIntel,-hypervisor"
                + " -m 464M -smbios type=1,serial=VMware-numaspread -smp cpus=8,maxcpus=8,sockets=2,cores=2,threads=2"
                + " -object memory-backend-ram,id=mem0,size=400M -numa node,nodeid=0,memdev=mem0"
                + " -object memory-backend-ram,id=mem1,size=64M -numa node,nodeid=1,memdev=mem1"
                + " -numa cpu,node-id=0,socket-id=0,core-id=0,thread-id=0 -numa cpu,node-id=0,socket-id=0,core-id=0,thread-id=1"
                + " -numa cpu,node-id=0,socket-id=0,core-id=1,thread-id=0 -numa cpu,node-id=0,socket-id=0,core-id=1,thread-id=1"
                + " -numa cpu,node-id=1,socket-id=1,core-id=0,thread-id=0 -numa cpu,node-id=1,socket-id=1,core-id=0,thread-id=1"
                + " -numa cpu,node-id=1,socket-id=1,core-id=1,thread-id=0 -numa cpu,node-id=1,socket-id=1,core-id=1,thread-id=1"
                + " -numa dist,src=0,dst=1,val=21"
                + " -kernel /k/vmlinuz -initrd /k/initramfs.cpio.gz -append console=ttyS0 -display none -monitor none -no-reboot -serial stdio"
                + " -device virtio-serial-pci,id=vs -chardev socket,id=ch,path=/tmp/g/channel,server=on,wait=off"
                + " -device virtserialport,bus=vs.0,chardev=ch,name=numaspread", line(topo(TWO_SOCKETS)));
    }

    @Test
    void kvmIsUsedWhenThere() {
        QemuMachine.Boot kvm = new QemuMachine.Boot("q", Path.of("k"), Path.of("i"), Path.of("s"), "a", true);
        List<String> a = QemuMachine.of(topo(TWO_SOCKETS)).arguments(kvm);
        assertEquals("kvm", a.get(a.indexOf("-accel") + 1));
    }

    @Test
    void notPresentCpusArePossibleAboveCpus() {
        String t = """
                possible 0-5
                present 0-3
                online 0-3
                node-of 4-5 1
                available: 2 nodes (0-1)
                node 0 cpus: 0 1 2
                node 1 cpus: 3
                node distances:
                node   0   1
                  0:  10  20
                  1:  20  10
                """;
        String l = line(topo(t));
        // The two CPUs that are not present get a socket of their own (Linux 6.9+ ignores them in a socket with present ones).
        assertTrue(l.contains(" -smp cpus=4,maxcpus=6,sockets=3,cores=2,threads=1 "), l);
        assertTrue(l.contains(" -numa cpu,node-id=1,socket-id=2,core-id=1,thread-id=0 "), l);
    }

    @Test
    void memoryOnlyAndMemorylessNodesAndAnAsymmetricTable() {
        String t = """
                possible 0-3
                available: 3 nodes (0-2)
                node 0 cpus: 0 1
                node 0 size: 1024 MB
                node 1 cpus: 2 3
                node 1 size: 0 MB
                node 2 cpus:
                node 2 size: 4096 MB
                node distances:
                node   0   1   2
                  0:  10  20  30
                  1:  21  10  30
                  2:  30  30  10
                """;
        String l = line(topo(t));
        assertTrue(l.contains(" -object memory-backend-ram,id=mem0,size=392M -numa node,nodeid=0,memdev=mem0 -numa node,nodeid=1"
                + " -object memory-backend-ram,id=mem2,size=64M -numa node,nodeid=2,memdev=mem2 "), l);
        assertTrue(l.contains(" -m 456M "), l);
        assertTrue(l.contains(" -numa dist,src=0,dst=1,val=20 -numa dist,src=0,dst=2,val=30 -numa dist,src=1,dst=0,val=21"
                + " -numa dist,src=1,dst=2,val=30 -numa dist,src=2,dst=0,val=30 -numa dist,src=2,dst=1,val=30 "), l);
    }

    @Test
    void anSncModelGetsItsFamilyAndModel() {
        String t = TWO_SOCKETS + "cpu-model intel-graniterapids-x\n";
        assertEquals("qemu64,vendor=GenuineIntel,family=6,model=173,-hypervisor", QemuMachine.of(topo(t)).cpu());
    }

    static String cannot(String text) {
        return assertThrows(CannotBuild.class, () -> QemuMachine.of(topo(text))).getMessage();
    }

    @Test
    void splitSmtNumberingIsBuiltByHotAddingTheSecondThreads() {
        Topology t = topo("""
                possible 0-7
                smt 2 stride 4
                package 0 cpus 0-1,4-5
                package 1 cpus 2-3,6-7
                available: 2 nodes (0-1)
                node 0 cpus: 0 1 4 5
                node 1 cpus: 2 3 6 7
                node distances:
                node   0   1
                  0:  10  20
                  1:  20  10
                """);
        QemuMachine m = QemuMachine.of(t);
        String l = QemuMachine.shellLine(m.arguments(BOOT));
        assertTrue(l.contains(" -smp cpus=1,maxcpus=8,sockets=2,cores=2,threads=2 "), l);
        assertTrue(l.contains(" -numa cpu,node-id=0,socket-id=0,core-id=0,thread-id=1 -numa cpu,node-id=0,socket-id=0,core-id=1,thread-id=1 "), l);
        assertTrue(l.contains(" -device qemu64-x86_64-cpu,id=cpu1,socket-id=0,core-id=1,thread-id=0"
                + " -device qemu64-x86_64-cpu,id=cpu2,socket-id=1,core-id=0,thread-id=0"
                + " -device qemu64-x86_64-cpu,id=cpu3,socket-id=1,core-id=1,thread-id=0 "), l);
        assertTrue(l.endsWith(" -qmp unix:/tmp/g/qmp,server=on,wait=off"), l);
        assertEquals(List.of(List.of(new QemuMachine.Slot(4, 0, 0, 1), new QemuMachine.Slot(5, 0, 1, 1), new QemuMachine.Slot(6, 1, 0, 1),
                new QemuMachine.Slot(7, 1, 1, 1))), m.hotAddLevels());
    }

    @Test
    void siblingsThatAreNeitherAdjacentNorSplitAreNotBuilt() {
        assertEquals("SMT siblings 0,3 are neither adjacent (2k, 2k+1) nor split by the core count (c, c+2): QEMU and CPU hot-add"
                + " number threads one of these two ways", cannot("""
                possible 0-3
                siblings 0,3 1-2
                available: 1 nodes (0)
                node 0 cpus: 0 1 2 3
                """));
    }

    @Test
    void anArm64MachineIsNotBuiltByAnX86Guest() {
        assertEquals("arch arm64: the guest is an x86-64 kernel under qemu-system-x86_64", cannot("""
                arch arm64
                possible 0-3
                available: 1 nodes (0)
                node 0 cpus: 0 1 2 3
                """));
    }

    @Test
    void cpuZeroCannotGoOffline() {
        assertEquals("cpu 0 offline: x86 Linux cannot take CPU 0 offline", cannot("""
                possible 0-3
                online 1-3
                node-of 0 0
                available: 1 nodes (0)
                node 0 cpus: 1 2 3
                """));
    }

    @Test
    void nodesMustBeNumberedInTheOrderOfTheirFirstCpu() {
        assertEquals("node 1 holds cpu 0 before any CPU of node 0: Linux numbers nodes in the order of their first CPU"
                + " (node 0 would be named 1)", cannot("""
                possible 0-3
                available: 2 nodes (0-1)
                node 0 cpus: 2 3
                node 1 cpus: 0 1
                node distances:
                node   0   1
                  0:  10  20
                  1:  20  10
                """));
        assertEquals("node 0 has no CPUs but comes before node 1, which has: Linux numbers the nodes with CPUs first, in the order"
                + " of their first CPU, then the memory-only ones", cannot("""
                possible 0-1
                available: 2 nodes (0-1)
                node 0 cpus:
                node 1 cpus: 0 1
                node distances:
                node   0   1
                  0:  10  20
                  1:  20  10
                """));
    }

    @Test
    void sparseNodeIdsAreNotBuilt() {
        assertEquals("node ids 0,2 have gaps: Linux numbers the ACPI proximity domains it meets 0, 1, 2, ...", cannot("""
                possible 0-1
                available: 2 nodes (0,2)
                node 0 cpus: 0
                node 2 cpus: 1
                node distances:
                node   0   2
                  0:  10  20
                  2:  20  10
                """));
    }

    @Test
    void aDistanceLinuxWouldDropIsNotBuilt() {
        assertEquals("distance 10 from node 0 to node 1: QEMU takes 11 to 255 between two nodes (Linux drops a SLIT with 10 or less there)",
                cannot("""
                        expect slit-invalid
                        possible 0-1
                        available: 2 nodes (0-1)
                        node 0 cpus: 0
                        node 1 cpus: 1
                        node distances:
                        node   0   1
                          0:  10  10
                          1:  10  10
                        """));
    }

    @Test
    void clustersOfSeveralCoresAreNotBuiltOnQemu72() {
        assertTrue(cannot("""
                possible 0-3
                cluster cpus 0-1
                cluster cpus 2-3
                available: 1 nodes (0)
                node 0 cpus: 0 1 2 3
                """).startsWith("an L2 cluster of several cores (cpus 0-1 share an L2): QEMU 7.2 has no smp-cache"));
    }

    @Test
    void tooManyVcpus() {
        assertEquals("256 possible CPUs: QEMU 7.2's TCG boots at most 255 vCPUs on q35", cannot("""
                possible 0-255
                available: 1 nodes (0)
                node 0 cpus: 0-255
                """));
    }

    @Test
    void presentCpusMustComeFirst() {
        assertTrue(cannot("""
                possible 0-3
                present 0,2-3
                online 0,2-3
                node-of 1 0
                available: 1 nodes (0)
                node 0 cpus: 0 2 3
                """).startsWith("present CPUs 0,2-3 are not the first 3 possible CPUs"));
    }

    @Test
    void notPresentCpusGetSocketsOfTheirOwn() {
        assertEquals(1, QemuMachine.socketsFor(8, 8, 2));
        assertEquals(3, QemuMachine.socketsFor(12, 8, 2));    // sockets of 4: 0-3, 4-7 present, 8-11 not
        assertEquals(2, QemuMachine.socketsFor(16, 8, 2));
        assertEquals(1, QemuMachine.socketsFor(6, 3, 2));     // no whole-core size divides 3 and 6
        assertEquals(5, QemuMachine.socketsFor(5, 3, 1));
    }

    @Test
    void theBootedMachineIsComparedWithTheOneAskedFor() {
        String asked = """
                possible 0-5
                present 0-3
                online 0-3
                node-of 4-5 1
                available: 2 nodes (0-1)
                node 0 cpus: 0 1
                node 1 cpus: 2 3
                node distances:
                node   0   1
                  0:  10  20
                  1:  20  10
                """;
        assertEquals(java.util.Optional.empty(), QemuMachine.difference(topo(asked), topo(asked), "6.12.117+deb12-amd64"));
        String roundRobin = asked.replace("node-of 4-5 1", "node-of 4 0\nnode-of 5 1");
        assertEquals(java.util.Optional.of("Linux 6.12.117+deb12-amd64 puts cpu 4 in node 0, not 1: it spreads the CPUs that are not present"
                + " over the online nodes round-robin (numa_init_array(); such a CPU has no APIC id for SRAT to place until it is hot-added)"),
                QemuMachine.difference(topo(asked), topo(roundRobin), "6.12.117+deb12-amd64"));
        String fewer = asked.replace("possible 0-5", "possible 0-3").replace("node-of 4-5 1\n", "");
        assertEquals(java.util.Optional.of("Linux 7.3 sees possible CPUs 0-3, not 0-5"), QemuMachine.difference(topo(asked), topo(fewer), "7.3"));
        String far = asked.replace("0:  10  20", "0:  10  30").replace("1:  20  10", "1:  30  10");
        assertEquals(java.util.Optional.of("Linux 7.3 has distance 30 from node 0 to node 1, not 20"),
                QemuMachine.difference(topo(asked), topo(far), "7.3"));
    }

    @Test
    void quotingForAShell() {
        assertEquals("a 'b c' 'it'\\''s' x=1,y", QemuMachine.shellLine(List.of("a", "b c", "it's", "x=1,y")));
    }
}
