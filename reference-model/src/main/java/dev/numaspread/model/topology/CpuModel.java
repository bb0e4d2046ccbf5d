package dev.numaspread.model.topology;

import dev.numaspread.model.input.HasId;

/**
 * The CPU class a machine states with {@code cpu-model} (spec/formats.md FMT-20, spec/topology.md
 * TOPO-16): the x86 vendor-family-model values ({@code boot_cpu_data.x86_vfm}) that an
 * architecture hook of a modelled routine tests. {@link #OTHER}, the default, is every CPU no
 * hook singles out. Its id is the word of a {@code cpu-model} line and of JSON's {@code cpuModel}.
 *
 * <p>From 6.19 x86's {@code arch_sched_node_distance()} changes the scheduler's distances on
 * Granite Rapids-X and Clearwater Forest-X (Darkmont-X) machines with several nodes per package:
 * commit 4d6dd05d07d0 "sched/topology: Fix sched domain build error for GNR, CWF in SNC-3 mode",
 * narrowed by 528d89a4707e "x86/topo: Fix SNC topology mess" (7.0).
 */
public enum CpuModel implements HasId {
    /** Every CPU no modelled hook tests (no {@code cpu-model} line): {@code other}. */
    OTHER,
    /** Intel Granite Rapids-X: {@code INTEL_GRANITERAPIDS_X}, family 6 model 0xad: {@code intel-graniterapids-x}. */
    INTEL_GRANITERAPIDS_X,
    /** Intel Clearwater Forest-X: {@code INTEL_ATOM_DARKMONT_X}, family 6 model 0xdd: {@code intel-atom-darkmont-x}. */
    INTEL_ATOM_DARKMONT_X;

    /** The kernel's name of the model, the constant's own ({@code INTEL_GRANITERAPIDS_X}); empty for {@link #OTHER}. */
    public String kernelName() {
        return this == OTHER ? "" : name();
    }

    /** True for the models whose scheduler distances x86 rewrites from 6.19 (LVL-8). */
    public boolean isSncDistanceModel() {
        return this == INTEL_GRANITERAPIDS_X || this == INTEL_ATOM_DARKMONT_X;
    }

    /**
     * The model of a CPU as {@code /proc/cpuinfo} shows it ({@code vendor_id}, {@code cpu family},
     * {@code model}): the kernel's {@code x86_vfm} match, {@link #OTHER} for every CPU no hook
     * tests (spec/formats.md FMT-15).
     */
    public static CpuModel ofCpuinfo(String vendor, int family, int model) {
        if (!vendor.equals("GenuineIntel") || family != 6) return OTHER;
        return switch (model) {
            case 0xad -> INTEL_GRANITERAPIDS_X;
            case 0xdd -> INTEL_ATOM_DARKMONT_X;
            default -> OTHER;
        };
    }

    /** The words a {@code cpu-model} line takes, for messages: {@code intel-graniterapids-x, intel-atom-darkmont-x or other}. */
    public static String words() {
        return INTEL_GRANITERAPIDS_X.id() + ", " + INTEL_ATOM_DARKMONT_X.id() + " or " + OTHER.id();
    }

    @Override
    public String toString() {
        return id();
    }
}
