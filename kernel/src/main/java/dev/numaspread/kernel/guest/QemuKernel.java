package dev.numaspread.kernel.guest;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A kernel the kit boots under QEMU ({@code --impl kernel:SOURCE}): a {@link GuestImage} (a Debian
 * kernel fetched into the cache, or a user's build, with its probe and initramfs), booted by
 * {@link QemuGuest} on the machines {@link QemuMachine} can build. The calls its probe answers are
 * learned once, on a two-CPU machine, and kept beside the probe ({@code answers}, as
 * {@code numaspread kernel fetch} keeps them).
 */
public final class QemuKernel implements BootableKernel {

    private final GuestImage image;
    private final QemuGuest.Options options;
    private volatile Set<Guest.Call> answers;

    private QemuKernel(GuestImage image, QemuGuest.Options options) {
        this.image = image;
        this.options = options;
    }

    /**
     * The kernel {@code source} names ({@code debian-7.3}, a Debian release, a build folder), fetched
     * and made ready when it is not yet; {@code progress} gets a line per step.
     *
     * @throws GuestFailure when QEMU is not installed, or the guest cannot be made
     * @throws dev.numaspread.kernel.debian.FetchFailure when the source names no kernel or cannot be fetched
     * @throws IllegalArgumentException for a folder without what a guest needs
     * @throws dev.numaspread.kernel.probe.ProbeBuildFailure when the probe cannot be built
     */
    public static QemuKernel of(String source, Consumer<String> progress) {
        QemuGuest.Options options = QemuGuest.Options.defaults(progress);
        options.requireQemu();
        return new QemuKernel(GuestImage.of(source, KernelCache.fromEnvironment(), progress), options);
    }

    @Override
    public String release() {
        return image.release();
    }

    @Override
    public KernelRelease series() {
        return KernelRelease.parse(image.release());
    }

    /** The calls the probe answered in this kernel, learned on a two-CPU machine the first time (then kept beside the probe). */
    @Override
    public Set<Guest.Call> answers() {
        if (answers == null) answers = learnAnswers();
        return answers;
    }

    private synchronized Set<Guest.Call> learnAnswers() {
        Path kept = image.initramfs().resolveSibling("answers");
        try {
            if (Files.isRegularFile(kept)) return parse(Files.readString(kept, StandardCharsets.UTF_8));
            options.progress().accept("booting " + image.release() + " on a 2-CPU machine to see what its probe answers");
            Topology two = TopoFormat.read("topology probe-answers\npossible 0-1\navailable: 1 nodes (0)\nnode 0 cpus: 0 1\n",
                    "probe-answers.topo").topology();
            try (QemuGuest g = QemuGuest.boot(image, two, options)) {
                Set<Guest.Call> found = g.answers();
                Files.writeString(kept, String.join(", ", found.stream().map(c -> c.routine().id()).toList()) + "\n");
                return found;
            }
        } catch (IOException e) {
            throw new GuestFailure(kept + ": cannot read or keep what the probe answers (" + e.getMessage() + ")");
        }
    }

    /** The calls of {@code text}: routine ids, comma-separated, as {@code numaspread kernel fetch} keeps them. */
    static Set<Guest.Call> parse(String text) {
        Set<Guest.Call> out = EnumSet.noneOf(Guest.Call.class);
        for (String id : text.strip().split(",\\s*"))
            for (Guest.Call c : Guest.Call.values()) if (c.routine().id().equals(id)) out.add(c);
        return out;
    }

    @Override
    public Optional<String> whyNot(Guest.Call call) {
        if (answers().contains(call)) return Optional.empty();
        return Optional.of(call.routine().kernelName() + ": the probe did not find it in Linux " + image.release());
    }

    @Override
    public List<String> commandLine(Topology machine) {
        return QemuMachine.of(machine).arguments(new QemuMachine.Boot(options.qemu(), image.kernel(), image.initramfs(),
                Path.of("/tmp/numaspread-guest/channel"), QemuGuest.APPEND, QemuMachine.kvmAvailable()));
    }

    /** True with KVM ({@code /dev/kvm} usable). */
    @Override
    public boolean bootsQuickly() {
        return QemuMachine.kvmAvailable();
    }

    @Override
    public Guest boot(Topology machine) {
        return QemuGuest.boot(image, machine, options);
    }

    /**
     * Boots {@code machine} and keeps the clean guest in a file ({@link QemuGuest#keepClean()}: 2 to
     * 3 s and about 95 MB); a guest QEMU cannot save is returned all the same, with a progress line,
     * and is booted anew after an oops.
     */
    @Override
    public Guest bootKept(Topology machine) {
        return kept(QemuGuest.boot(image, machine, options), machine);
    }

    private QemuGuest kept(QemuGuest g, Topology machine) {
        try {
            g.keepClean();
        } catch (GuestFailure e) {
            options.progress().accept("no snapshot of " + machine.name() + " kept (" + e.getMessage() + "); it is booted after each oops");
        }
        return g;
    }

    /**
     * Restores the snapshot of a clean guest kept of {@code old}'s machine (2 to 3 s, where a boot
     * takes 10 to 30 s under TCG); without one, or when it does not restore, boots anew and keeps a
     * snapshot of that clean guest, since a machine that needed a clean guest once needs more: an
     * oops is judged only once the call alone on a clean guest gives it again, and the call after it
     * needs a clean guest too.
     */
    @Override
    public Guest again(Guest old, Topology machine) {
        if (old instanceof QemuGuest q && q.keepsClean() && q.requested().sameMachineAs(machine)) {
            try {
                return q.restoreClean();
            } catch (GuestFailure e) {
                options.progress().accept("the snapshot of " + machine.name() + " did not restore (" + e.getMessage() + "); booting it instead");
            }
        } else {
            old.close();
        }
        return kept(QemuGuest.boot(image, machine, options), machine);
    }
}
