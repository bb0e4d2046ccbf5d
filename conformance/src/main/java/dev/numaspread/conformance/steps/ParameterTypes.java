package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import io.cucumber.java.DocStringType;
import io.cucumber.java.ParameterType;

/**
 * The kernel notation steps speak: {@code {kernel}} ({@code 6.12}), {@code {cpulist}}
 * ({@code 0-7,128-135}) and the {@code """topo} doc string, a machine in {@code .topo} syntax.
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

    /** A {@code """topo} doc string: a machine in {@code .topo} syntax; errors cite {@code feature:LINE}. */
    @DocStringType(contentType = "topo")
    public Topology topo(String text) {
        return TopoFormat.read(text, "feature").topology();
    }
}
