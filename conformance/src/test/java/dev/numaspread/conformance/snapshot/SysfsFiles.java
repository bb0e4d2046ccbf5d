package dev.numaspread.conformance.snapshot;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The sysfs files a kernel shows for a machine, for snapshots built in tests. */
public final class SysfsFiles {

    private SysfsFiles() {}

    /**
     * The files of {@code sys/devices/system} a kernel shows for {@code m} ({@code drivers/base/node.c},
     * {@code cpu.c}, {@code topology.c}): x86 style, so an offline CPU has no {@code topology/} and is in no cpulist, and
     * reaches its node through the {@code cpuN/nodeM} link; sibling and cluster lists name online CPUs.
     */
    public static List<Tar.Entry> of(Topology m) {
        List<Tar.Entry> e = new ArrayList<>();
        String cpu = "sys/devices/system/cpu/", node = "sys/devices/system/node/";
        e.add(file(cpu + "possible", m.possible().toList() + "\n"));
        e.add(file(cpu + "present", m.present().toList() + "\n"));
        e.add(file(cpu + "online", m.online().toList() + "\n"));
        for (int c : m.present().toArray()) {
            String d = cpu + "cpu" + c + "/";
            if (c > 0) e.add(file(d + "online", (m.online().contains(c) ? "1" : "0") + "\n"));
            e.add(new Tar.Link(d + "node" + m.nodeOf(c), "../../node/node" + m.nodeOf(c)));
            if (!m.online().contains(c)) continue;
            e.add(file(d + "topology/thread_siblings_list", m.onlineSiblingsOf(c).toList() + "\n"));
            e.add(file(d + "topology/core_cpus_list", m.onlineSiblingsOf(c).toList() + "\n"));
            m.packageOf(c).ifPresent(p -> e.add(file(d + "topology/physical_package_id", p.id() + "\n")));
            CpuSet cluster = m.clusters().stream().filter(g -> g.contains(c)).findFirst().orElse(m.siblingsOf(c)).and(m.online());
            e.add(file(d + "topology/cluster_cpus_list", cluster.toList() + "\n"));
        }
        CpuSet ids = CpuSet.of(m.nodeIds());
        e.add(file(node + "possible", ids.toList() + "\n"));
        e.add(file(node + "online", ids.toList() + "\n"));
        e.add(file(node + "has_cpu", CpuSet.ofStream(m.nodes().stream().filter(n -> !m.isCpuless(n.id())).mapToInt(Node::id)).toList() + "\n"));
        e.add(file(node + "has_memory", CpuSet.ofStream(m.nodes().stream().filter(Node::hasMemory).mapToInt(Node::id)).toList() + "\n"));
        for (Node n : m.nodes()) {
            String d = node + "node" + n.id() + "/";
            e.add(file(d + "cpulist", m.onlineCpusOf(n.id()).toList() + "\n"));
            StringBuilder row = new StringBuilder();
            for (int to : m.nodeIds()) row.append(row.length() == 0 ? "" : " ").append(m.distance(n.id(), to));
            e.add(file(d + "distance", row + "\n"));
            long kb = n.hasMemory() ? Math.max(n.sizeMiB(), 0) * 1024 : 0;
            e.add(file(d + "meminfo", "Node " + n.id() + " MemTotal:       " + kb + " kB\nNode " + n.id() + " MemFree:        " + kb / 2 + " kB\n"));
            for (int c : m.presentCpusOf(n.id()).toArray()) e.add(new Tar.Link(d + "cpu" + c, "../../cpu/cpu" + c));
        }
        return e;
    }

    private static Tar.File file(String path, String text) {
        return new Tar.File(path, text.getBytes(StandardCharsets.UTF_8));
    }
}
