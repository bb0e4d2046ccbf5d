package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import io.cucumber.java.DocStringType;
import io.cucumber.java.ParameterType;

/** Kernel notation in steps: {@code {kernel}} (6.12), {@code {cpulist}} (0-7,128-135), {@code """topo} doc strings. */
public class ParameterTypes {

    @ParameterType("v?\\d+\\.\\d+")
    public KernelRelease kernel(String text) {
        return KernelRelease.parse(text);
    }

    @ParameterType("[0-9][0-9,\\-]*")
    public CpuSet cpulist(String text) {
        return CpuSet.parseList(text);
    }

    @DocStringType(contentType = "topo")
    public Topology topo(String text) {
        return StopgapTopo.read(text, "scenario machine");
    }
}
