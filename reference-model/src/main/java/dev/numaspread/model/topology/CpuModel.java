package dev.numaspread.model.topology;

import java.util.Arrays;
import java.util.Optional;

/**
 * The CPU class a machine states with {@code cpu-model} (spec/formats.md FMT-20, spec/topology.md
 * TOPO-16): the x86 vendor-family-model values ({@code boot_cpu_data.x86_vfm}) that an
 * architecture hook of a modelled routine tests. {@link #OTHER}, the default, is every CPU no
 * hook singles out.
 *
 * <p>From 6.19 x86's {@code arch_sched_node_distance()} changes the scheduler's distances on
 * Granite Rapids-X and Clearwater Forest-X (Darkmont-X) machines with several nodes per package:
 * commit 4d6dd05d07d0 "sched/topology: Fix sched domain build error for GNR, CWF in SNC-3 mode",
 * narrowed by 528d89a4707e "x86/topo: Fix SNC topology mess" (7.0).
 */
public enum CpuModel {
    /** Every CPU no modelled hook tests (no {@code cpu-model} line). */
    OTHER("other", ""),
    /** Intel Granite Rapids-X: {@code INTEL_GRANITERAPIDS_X}, family 6 model 0xad. */
    INTEL_GRANITERAPIDS_X("intel-graniterapids-x", "INTEL_GRANITERAPIDS_X"),
    /** Intel Clearwater Forest-X: {@code INTEL_ATOM_DARKMONT_X}, family 6 model 0xdd. */
    INTEL_ATOM_DARKMONT_X("intel-atom-darkmont-x", "INTEL_ATOM_DARKMONT_X");

    private final String word;
    private final String kernelName;

    CpuModel(String word, String kernelName) {
        this.word = word;
        this.kernelName = kernelName;
    }

    /** The word of a {@code cpu-model} line and of JSON's {@code cpuModel}: {@code intel-graniterapids-x}. */
    public String word() {
        return word;
    }

    /** The kernel's name of the model ({@code INTEL_GRANITERAPIDS_X}); empty for {@link #OTHER}. */
    public String kernelName() {
        return kernelName;
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

    /** The model a {@code cpu-model} word names; {@code other} included. */
    public static Optional<CpuModel> byWord(String word) {
        return Arrays.stream(values()).filter(m -> m.word.equals(word)).findFirst();
    }

    /** The words a {@code cpu-model} line takes, for messages: {@code intel-graniterapids-x, intel-atom-darkmont-x or other}. */
    public static String words() {
        return INTEL_GRANITERAPIDS_X.word + ", " + INTEL_ATOM_DARKMONT_X.word + " or " + OTHER.word;
    }

    @Override
    public String toString() {
        return word;
    }
}
