package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import io.cucumber.java.DocStringType;
import io.cucumber.java.ParameterType;

/**
 * The kernel notation steps speak: {@code {kernel}} ({@code 6.12}), {@code {cpulist}}
 * ({@code 0-7,128-135}), {@code {node}} ({@code node 2}, {@code NUMA_NO_NODE}) and the
 * {@code """topo} doc string, a machine in {@code .topo} syntax; and the words of a plan's slots.
 */
public final class ParameterTypes {

    /** {@code {kernel}}: a release such as {@code 6.12} or {@code v6.1}. */
    @ParameterType(name = "kernel", value = "v?\\d+\\.\\d+")
    public KernelRelease kernel(String text) {
        return KernelRelease.parse(text);
    }

    /** {@code {cpulist}}: the kernel's list syntax, {@code 0-7,128-135}, {@code 0-15:2/4}, {@code 5}. */
    @ParameterType(name = "cpulist", value = "\\d[\\d,:/-]*", useForSnippets = false)
    public CpuSet cpulist(String text) {
        return CpuSet.parseList(text);
    }

    /** {@code {node}}: a device's node as a driver passes it, {@code node 2} or {@code NUMA_NO_NODE} (-1). */
    @ParameterType(name = "node", value = "node -?\\d+|NUMA_NO_NODE", useForSnippets = false)
    public Integer node(String text) {
        return text.equals("NUMA_NO_NODE") ? Numa.NUMA_NO_NODE : Integer.valueOf(text.substring("node ".length()));
    }

    /**
     * {@code {slots}} and {@code {slot}}: what a plan of one CPU each calls its slots, local spread's
     * {@code queues} or mlx5's {@code vectors}, so that one step states a plan of either.
     */
    @ParameterType(name = "slots", value = "queues|vectors", useForSnippets = false)
    public String slots(String word) {
        return word;
    }

    @ParameterType(name = "slot", value = "queue|vector", useForSnippets = false)
    public String slot(String word) {
        return word;
    }

    /** A {@code """topo} doc string: a machine in {@code .topo} syntax; errors cite {@code feature:LINE}. */
    @DocStringType(contentType = "topo")
    public Topology topo(String text) {
        return TopoFormat.read(text, "feature").topology();
    }
}
