package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

/**
 * A physical package (socket) with its raw {@code physical_package_id}, which is opaque and not
 * dense (36 and 8442 on a Kunpeng 920, -1 where firmware does not say).
 */
public record CpuPackage(int id, CpuSet cpus) {
    public CpuPackage {
        if (cpus == null || cpus.isEmpty()) throw new IllegalArgumentException("package " + id + " has no CPUs");
    }
}
