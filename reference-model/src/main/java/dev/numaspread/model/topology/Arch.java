package dev.numaspread.model.topology;

import dev.numaspread.model.input.HasId;

/**
 * The architecture a machine states with {@code arch} (spec/formats.md FMT-6, spec/topology.md
 * TOPO-13): it decides how the kernel keeps a CPU's live cluster mask, which the cluster step of
 * {@code group_cpus_evenly} (7.0+) reads. {@link #X86}, the default, is what a machine without an
 * {@code arch} line means, so no file written before the directive changes meaning. Its id is the
 * word of an {@code arch} line and of JSON's {@code arch}.
 *
 * <ul>
 *   <li>x86 links a CPU into the L2 masks of the online CPUs of its cluster and node when it comes
 *       online ({@code set_cpu_sibling_map}) and empties its own mask when it goes offline
 *       ({@code remove_siblinginfo}): a CPU that is not online has an empty mask.</li>
 *   <li>arm64 ({@code drivers/base/arch_topology.c}) resets every possible CPU's mask to the CPU
 *       itself at boot ({@code reset_cpu_topology}, {@code clear_cpu_topology}), links a CPU with
 *       the online CPUs of its package and cluster when it comes online
 *       ({@code update_siblings_masks}), and on offline removes it from the others' masks and resets
 *       its own to itself ({@code remove_cpu_topology}): a CPU that is not online has the mask of
 *       itself alone, never an empty one.</li>
 * </ul>
 */
public enum Arch implements HasId {
    /** x86 ({@code x86}): the default; an offline or not-present CPU's cluster mask is empty. */
    X86,
    /** arm64 ({@code arm64}): an offline or not-present CPU's cluster mask is the CPU itself. */
    ARM64;

    /** The words, for messages: {@code x86 or arm64}. */
    public static String words() {
        return X86.id() + " or " + ARM64.id();
    }
}
