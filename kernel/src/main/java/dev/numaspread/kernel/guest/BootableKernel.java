package dev.numaspread.kernel.guest;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A kernel ready to boot (a Debian kernel fetched into the cache with its probe built, or a kernel
 * the user built): it boots the machines the kit asks for under QEMU, one {@link Guest} per machine.
 * What the kit side ({@code kernel:SOURCE}, package {@code dev.numaspread.kernel.certify}) needs
 * from below the {@link Guest} line besides the guests themselves.
 *
 * <p>Everything but {@link #boot} is cheap and boots nothing: the kit asks it to choose machines,
 * to state its claims before the first boot, and to print a failing machine's QEMU command line.
 */
public interface BootableKernel {

    /** What the kernel calls itself, as {@link Guest#release()} will: {@code 7.3.4+deb13-amd64}. */
    String release();

    /** The series of {@link #release()}: {@code 7.3}. */
    KernelRelease series();

    /**
     * The calls the probe built for this kernel can answer, known from the release's own headers and
     * symbols without booting; a booted {@link Guest#answers()} may still lack one (a symbol not found
     * at load time).
     */
    Set<Guest.Call> answers();

    /** Why {@code call} cannot be answered by this kernel (absent from the release, not exported and not found); empty when it can. */
    Optional<String> whyNot(Guest.Call call);

    /**
     * What of {@code machine} QEMU (the one at hand) or this kernel cannot build, one line per
     * feature, each naming the feature and why ({@code "split SMT numbering (siblings 0 and 4): QEMU
     * numbers a core's threads next to each other"}); empty when {@link #boot} can boot it. By
     * default what {@link QemuMachine#of} refuses, the one source of QEMU's rules.
     */
    default List<String> cannotBuild(Topology machine) {
        try {
            QemuMachine.of(machine);
            return List.of();
        } catch (CannotBuild e) {
            return List.of(e.getMessage());
        }
    }

    /**
     * The QEMU command line that boots {@code machine}, one word per element (a reader pastes it into
     * a shell with the kernel and initramfs of the cache): printed with a failing machine.
     *
     * @throws CannotBuild when {@link #cannotBuild} names a feature
     */
    List<String> commandLine(Topology machine);

    /**
     * True when a boot takes a second or two (KVM), false when it takes seconds per vCPU (QEMU's TCG):
     * the kit then boots no scenario machine of more than a few dozen vCPUs. The default is false.
     */
    default boolean bootsQuickly() {
        return false;
    }

    /**
     * Boots {@code machine} and waits until the probe answers. The guest's {@link Guest#machine()} is
     * what the kernel made of it (nodes renumbered, empty nodes dropped); the caller compares.
     * Boots may run side by side, one per thread.
     *
     * @throws CannotBuild   when QEMU or the kernel cannot build the machine
     * @throws GuestFailure  when it did not boot in time or panicked (the console's last lines in the message)
     */
    Guest boot(Topology machine);

    /**
     * Boots {@code machine} as {@link #boot} does, and keeps the clean guest so that {@link #again}
     * gives it back without a boot: for a machine whose calls may oops the kernel. The default keeps
     * nothing.
     *
     * @throws CannotBuild  as {@link #boot}
     * @throws GuestFailure as {@link #boot}
     */
    default Guest bootKept(Topology machine) {
        return boot(machine);
    }

    /**
     * A clean guest on {@code machine} (as {@link #boot} gives it: its online CPUs as booted, no call
     * made) in place of {@code old}, a guest on the same machine, which is closed: after an oops, or
     * when {@code old} was powered off. The default boots anew; a kernel that keeps a snapshot of a
     * clean guest restores it instead.
     *
     * @throws CannotBuild  as {@link #boot}
     * @throws GuestFailure as {@link #boot}
     */
    default Guest again(Guest old, Topology machine) {
        old.close();
        return boot(machine);
    }
}
