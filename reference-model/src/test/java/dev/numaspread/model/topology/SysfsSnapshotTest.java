package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sysfs snapshot directories (spec/formats.md FMT-13, FMT-14): each tree, written here file by
 * file as {@code cp -r /sys/devices/system/{cpu,node}} would copy it, reads to the same machine as
 * the {@code .topo} a user would write for it.
 */
class SysfsSnapshotTest {

    @TempDir
    Path tmp;

    private static void write(Path root, String file, String content) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content + "\n");
    }

    /** A CPU with its topology/ directory, as every online CPU has. */
    private static void cpu(Path root, int cpu, String siblings, int pkg) throws IOException {
        write(root, "cpu/cpu" + cpu + "/topology/thread_siblings_list", siblings);
        write(root, "cpu/cpu" + cpu + "/topology/physical_package_id", Integer.toString(pkg));
    }

    /** The Kunpeng 920 of seed 003, from the sizes and table numactl printed (fixture kunpeng920-4node). */
    private Path kunpeng() throws IOException {
        Path s = tmp.resolve("kunpeng");
        write(s, "cpu/possible", "0-95");
        write(s, "cpu/present", "0-95");
        write(s, "cpu/online", "0-95");
        for (int c = 0; c < 96; c++) cpu(s, c, Integer.toString(c), c < 48 ? 0 : 1);
        String[] distance = {"10 16 32 33", "16 10 25 32", "32 25 10 16", "33 32 16 10"};
        long[] mib = {63379, 64509, 64509, 63997};
        for (int n = 0; n < 4; n++) {
            write(s, "node/node" + n + "/cpulist", (24 * n) + "-" + (24 * n + 23));
            write(s, "node/node" + n + "/distance", distance[n]);
            write(s, "node/node" + n + "/meminfo", "Node " + n + " MemTotal:       " + mib[n] * 1024 + " kB\nNode " + n + " MemFree:        1000 kB");
        }
        write(s, "node/possible", "0-3");
        write(s, "node/online", "0-3");
        write(s, "node/has_cpu", "0-3");
        write(s, "node/has_memory", "0-3");
        return s;
    }

    @Test
    void FMT_13_kunpengSnapshotIsTheKunpengFixture() throws IOException {
        TopoDocument fromSysfs = SysfsSnapshot.read(kunpeng());
        TopoDocument fixture = TopoFormat.read(Path.of("..", "fixtures", "topologies", "kunpeng920-4node.topo"));
        assertTrue(fromSysfs.topology().sameMachineAs(fixture.topology()), TopoFormat.write(fromSysfs.topology()));
        assertEquals("kunpeng", fromSysfs.topology().name());
        assertEquals(codesAndMessages(fixture), codesAndMessages(fromSysfs));
        assertEquals(List.of("node0-not-representative"), fromSysfs.warnings().stream().map(TopologyWarning::code).toList());
        assertTrue(fromSysfs.topology().clustersAssumed(), "no cluster_cpus_list files: clusters assumed (TOPO-12)");
    }

    /**
     * Two nodes, SMT pairs 0-1 2-3 4-5 6-7, CPUs 3 and 7 offline. CPU 3 lost topology/ (x86): its
     * node comes from its cpu3/node0 link, its sibling list is gone and CPU 2's omits it. CPU 7
     * kept topology/ (arm64 keeps it) and is named by node/node1/cpu7 and by CPU 6's siblings.
     */
    private Path offlineSmt() throws IOException {
        Path s = tmp.resolve("offline-smt");
        Path root = s.resolve("devices/system");
        write(root, "cpu/possible", "0-7");
        write(root, "cpu/present", "0-7");
        write(root, "cpu/online", "0-2,4-6");
        cpu(root, 0, "0-1", 0);
        cpu(root, 1, "0-1", 0);
        cpu(root, 2, "2", 0);
        Files.createDirectories(root.resolve("cpu/cpu3/node0"));
        write(root, "cpu/cpu3/online", "0");
        cpu(root, 4, "4-5", 1);
        cpu(root, 5, "4-5", 1);
        cpu(root, 6, "6-7", 1);
        cpu(root, 7, "6-7", 1);
        write(root, "cpu/cpu7/online", "0");
        write(root, "node/node0/cpulist", "0-2");
        write(root, "node/node0/distance", "10 20");
        write(root, "node/node0/meminfo", "Node 0 MemTotal:        4194304 kB");
        write(root, "node/node1/cpulist", "4-6");
        write(root, "node/node1/distance", "20 10");
        write(root, "node/node1/meminfo", "Node 1 MemTotal:        4194304 kB");
        Files.createDirectories(root.resolve("node/node1/cpu7"));
        return s;
    }

    static final String OFFLINE_SMT_TOPO = """
            possible 0-7
            present 0-7
            online 0-2,4-6
            siblings 0-1 4-5 6-7
            package 0 cpus 0-3
            package 1 cpus 4-7
            node-of 3 0
            node-of 7 1
            available: 2 nodes (0-1)
            node 0 cpus: 0 1 2
            node 0 size: 4096 MB
            node 1 cpus: 4 5 6
            node 1 size: 4096 MB
            node distances:
            node   0   1
              0:  10  20
              1:  20  10
            """;

    @Test
    void FMT_14_offlineCpusTakeTheirNodeFromLinksAndStandAloneWithoutSiblings() throws IOException {
        TopoDocument fromSysfs = SysfsSnapshot.read(offlineSmt());
        Topology topo = TopoFormat.read(OFFLINE_SMT_TOPO, "offline-smt.topo").topology();
        assertTrue(fromSysfs.topology().sameMachineAs(topo), TopoFormat.write(fromSysfs.topology()));
        assertEquals(0, fromSysfs.topology().nodeOf(3));
        assertEquals("6-7", fromSysfs.topology().siblingsOf(7).toList());
        assertEquals("3", fromSysfs.topology().siblingsOf(3).toList());
        assertEquals(List.of(new TopologyWarning(0, TopologyValidation.OFFLINE_CPU_TOPOLOGY,
                "present CPUs 3 have no topology/ directory (x86 removes it when a CPU goes offline); each is taken in the package"
                        + " of its node; CPUs 3, which no sibling list names, are taken as their own SMT siblings")), fromSysfs.warnings());
    }

    @Test
    void FMT_14_anOfflineCpuNoFileHomesIsRejected() throws IOException {
        Path s = offlineSmt();
        Files.delete(s.resolve("devices/system/cpu/cpu3/node0"));
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("devices/system/cpu") + ": present CPUs 3 are in no node's cpulist and have no cpuN/nodeM link"
                + " or node/nodeM/cpuN entry, so the snapshot does not say their node (x86 drops offline CPUs from cpulist);"
                + " expected their node: describe the machine in a .topo file with 'node-of 3 NODE'", e.getMessage());
    }

    /**
     * Found by the second campaign (issue 25): a copy whose distance file was a link outside it was
     * read through the link, and the error quoted the linked file's first line. A copy is read as
     * an archive is: never through a link.
     */
    @Test
    void FMT_17_aCopyIsNeverReadThroughALink() throws IOException {
        Path s = kunpeng();
        Path secret = tmp.resolve("secret.txt");
        Files.writeString(secret, "hunter2 is the password\n");
        Path distance = s.resolve("node/node0/distance");
        Files.delete(distance);
        Files.createSymbolicLink(distance, secret);
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertTrue(!e.getMessage().contains("hunter2"), e.getMessage());
        // A directory that is a link outside the copy is not entered either.
        Files.delete(distance);
        Files.writeString(distance, "10 16 32 33\n");
        Path node3 = s.resolve("node/node3");
        Path elsewhere = tmp.resolve("elsewhere");
        Files.move(node3, elsewhere);
        Files.createSymbolicLink(node3, elsewhere);
        InvalidTopologyException d = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertTrue(!d.getMessage().contains(elsewhere.toString()), d.getMessage());
    }

    /** POWER-like sparse ids 0, 8, 250: node 8 has CPUs but no memory, node 250 memory but no CPUs. */
    private Path sparse() throws IOException {
        Path s = tmp.resolve("sparse");
        write(s, "cpu/possible", "0-7");
        write(s, "cpu/present", "0-7");
        write(s, "cpu/online", "0-7");
        for (int c = 0; c < 8; c++) cpu(s, c, Integer.toString(c), c < 4 ? 0 : 8);
        write(s, "node/node0/cpulist", "0-3");
        write(s, "node/node0/distance", "10 40 80");
        write(s, "node/node0/meminfo", "Node 0 MemTotal:        1048576 kB");
        write(s, "node/node8/cpulist", "4-7");
        write(s, "node/node8/distance", "40 10 80");
        write(s, "node/node8/meminfo", "Node 8 MemTotal:              0 kB");
        write(s, "node/node250/cpulist", "");
        write(s, "node/node250/distance", "80 80 10");
        write(s, "node/node250/meminfo", "Node 250 MemTotal:        2097152 kB");
        write(s, "node/has_cpu", "0,8");
        write(s, "node/has_memory", "0,250");
        return s;
    }

    static final String SPARSE_TOPO = """
            package 0 cpus 0-3
            package 8 cpus 4-7
            available: 3 nodes (0,8,250)
            node 0 cpus: 0 1 2 3
            node 0 size: 1024 MB
            node 8 cpus: 4 5 6 7
            node 8 size: 0 MB
            node 250 cpus:
            node 250 size: 2048 MB
            node distances:
            node   0   8  250
              0:  10  40  80
              8:  40  10  80
            250:  80  80  10
            """;

    @Test
    void FMT_13_sparseIdsAndCpulessNodeReadAsTheirTopo() throws IOException {
        TopoDocument fromSysfs = SysfsSnapshot.read(sparse());
        TopoDocument topo = TopoFormat.read(SPARSE_TOPO, "sparse.topo");
        assertTrue(fromSysfs.topology().sameMachineAs(topo.topology()), TopoFormat.write(fromSysfs.topology()));
        assertTrue(fromSysfs.topology().isCpuless(250));
        assertTrue(fromSysfs.topology().isMemoryless(8));
        assertEquals(80, fromSysfs.topology().distance(8, 250));
        // The same validation runs: the same warnings, file positions aside.
        assertEquals(codesAndMessages(topo), codesAndMessages(fromSysfs));
        assertTrue(fromSysfs.warns(TopologyValidation.CPULESS_NODES));
    }

    /** Warnings without their positions, sorted: a snapshot has files, not lines. */
    private static List<String> codesAndMessages(TopoDocument doc) {
        return doc.warnings().stream().map(w -> w.code() + ": " + w.message()).sorted().toList();
    }

    @Test
    void FMT_13_hasMemoryMarksAMemorylessNodeWithoutMeminfo() throws IOException {
        Path s = sparse();
        Files.delete(s.resolve("node/node8/meminfo"));
        Topology t = SysfsSnapshot.read(s).topology();
        assertTrue(t.isMemoryless(8));
        assertEquals(-1, t.nodes().get(1).sizeMiB());
    }

    @Test
    void FMT_14_aDistanceFileOfTheWrongLengthNamesTheFile() throws IOException {
        Path s = kunpeng();
        write(s, "node/node3/distance", "33 32 16");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("node/node3/distance") + ": found 3 values; expected 4, one per online node", e.getMessage());
    }

    @Test
    void FMT_14_aDistanceThatIsNoNumberNamesTheFile() throws IOException {
        Path s = kunpeng();
        write(s, "node/node1/distance", "16 10 x 32");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("node/node1/distance") + ": found 'x'; expected distances as whole numbers 0-999", e.getMessage());
    }

    // ---------------------------------------------------------------- FMT-16 to FMT-18 in a snapshot

    @Test
    void FMT_16_hasMemoryNamingAnAbsentNodeIsRejected() throws IOException {
        Path s = kunpeng();
        write(s, "node/has_memory", "0-3,7");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("node/has_memory") + ": lists nodes 7, which have no nodeN directory; expected online nodes only (0-3):"
                + " was the snapshot taken during memory hotplug? take it again", e.getMessage());
    }

    @Test
    void FMT_16_aMeminfoLineOfAnotherNodeIsRejected() throws IOException {
        Path s = kunpeng();
        write(s, "node/node0/meminfo", "Node 0 MemTotal:       64900096 kB\nNode 7 MemFree:        1000 kB");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("node/node0/meminfo") + ": found 'Node 7 MemFree:        1000 kB', a line of another node; expected the lines of node 0",
                e.getMessage());
    }

    @Test
    void FMT_16_aCpuDirectoryPastNrCpusIsRejected() throws IOException {
        Path s = kunpeng();
        write(s, "cpu/cpu99999/online", "1");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("cpu/cpu99999") + ": an id past NR_CPUS; expected cpu0 to cpu8191 (spec/formats.md FMT-16)", e.getMessage());
    }

    /** A garbage file is quoted cut to 60 characters, never whole. */
    @Test
    void FMT_18_aGarbageFileIsQuotedCut() throws IOException {
        Path s = kunpeng();
        write(s, "cpu/online", "x".repeat(5000));
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        String sixty = "x".repeat(60) + "...";
        assertEquals(s.resolve("cpu/online") + ": cpu list piece '" + sixty + "' in '" + sixty + "': '" + sixty
                + "' is not a CPU id; expected a list such as 0-7,128-135", e.getMessage());
    }

    @Test
    void FMT_18_bytesThatAreNotTextNameTheFileLineAndColumn() throws IOException {
        Path s = kunpeng();
        Files.write(s.resolve("node/node2/cpulist"), new byte[] {'4', '8', '-', (byte) 0xff});
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("node/node2/cpulist") + ":1:4: byte 0xff is not UTF-8; expected UTF-8 text", e.getMessage());
        Files.write(s.resolve("node/node2/cpulist"), new byte[] {0, 0, '4', '8', '-', '7', '1', '\n'});   // leading NULs of an archived dump
        assertEquals(CpuSet.range(48, 71), SysfsSnapshot.read(s).topology().cpusOf(2));
    }

    /** A FIFO where a sysfs file should be would block a read: it is refused (FMT-17). */
    @Test
    void FMT_17_aFifoInTheSnapshotIsRefused() throws Exception {
        Path s = kunpeng();
        Files.delete(s.resolve("node/node0/meminfo"));
        assertEquals(0, new ProcessBuilder("mkfifo", s.resolve("node/node0/meminfo").toString()).start().waitFor());
        Topology t = SysfsSnapshot.read(s).topology();   // a meminfo that is no regular file is not there
        assertEquals(-1, t.nodes().get(0).sizeMiB());
        Files.delete(s.resolve("cpu/online"));
        assertEquals(0, new ProcessBuilder("mkfifo", s.resolve("cpu/online").toString()).start().waitFor());
        assertEquals(CpuSet.range(0, 95), SysfsSnapshot.read(s).topology().online(), "an online file that is no regular file is not there");
    }

    @Test
    void FMT_14_aMissingPossibleFileIsRejected() throws IOException {
        Path s = kunpeng();
        Files.delete(s.resolve("cpu/possible"));
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("cpu/possible") + ": no such file; expected the possible CPUs as the kernel lists them (e.g. 0-95):"
                + " take a snapshot with 'numaspread snapshot FILE.tar'", e.getMessage());
    }

    @Test
    void FMT_14_aDirectoryWithoutCpuAndNodeIsRejected() throws IOException {
        Path s = tmp.resolve("empty");
        Files.createDirectories(s);
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s + ": no cpu/ and node/ directories (nor devices/system/cpu and devices/system/node); expected a copy of"
                + " /sys/devices/system: take a snapshot with 'numaspread snapshot FILE.tar'", e.getMessage());
    }

    @Test
    void FMT_14_hasCpuThatDisagreesWithTheCpulistsIsRejected() throws IOException {
        Path s = sparse();
        write(s, "node/has_cpu", "0");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(s.resolve("node/has_cpu") + ": lists nodes 0; expected the nodes whose cpulist is not empty (0,8):"
                + " was the snapshot taken during CPU hotplug? take it again", e.getMessage());
    }

    @Test
    void FMT_14_siblingListsThatDisagreeNameTheFile() throws IOException {
        Path s = offlineSmt();
        Path root = s.resolve("devices/system");
        write(root, "cpu/cpu1/topology/thread_siblings_list", "1");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> SysfsSnapshot.read(s));
        assertEquals(root.resolve("cpu/cpu1/topology/thread_siblings_list") + ": lists 1 but "
                + root.resolve("cpu/cpu0/topology/thread_siblings_list") + " lists 0-1; expected the same siblings from every thread of a core",
                e.getMessage());
    }

    @Test
    void FMT_13_clustersAboveTheCoreAreRead() throws IOException {
        Path s = kunpeng();
        for (int c = 0; c < 96; c++) write(s, "cpu/cpu" + c + "/topology/cluster_cpus_list", (c / 4 * 4) + "-" + (c / 4 * 4 + 3));
        Topology t = SysfsSnapshot.read(s).topology();
        assertEquals(24, t.clusters().size());
        assertEquals("92-95", t.clusters().get(23).toList());
        assertEquals(false, t.clustersAssumed());
    }

    @Test
    void FMT_13_clustersThatAreCoresAreStatedNotAssumed() throws IOException {
        Path s = kunpeng();
        for (int c = 0; c < 96; c++) write(s, "cpu/cpu" + c + "/topology/cluster_cpus_list", Integer.toString(c));
        Topology t = SysfsSnapshot.read(s).topology();
        assertEquals(96, t.clusters().size());
        assertEquals(false, t.clustersAssumed());
    }
}
