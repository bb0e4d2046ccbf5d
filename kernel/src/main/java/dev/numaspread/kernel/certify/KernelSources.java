package dev.numaspread.kernel.certify;

import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.guest.QemuKernel;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.function.Consumer;

/**
 * The kernel an {@code --impl kernel:SOURCE} names: {@code debian-6.1}, {@code debian-6.12},
 * {@code debian-7.2}, {@code debian-7.3} (the newest build of the series in Debian's archive), an
 * exact Debian release ({@code 7.3.4+deb13-amd64}), a folder holding a kernel the user built, or
 * {@code model-X.Y}: the reference model of release X.Y standing in for a booted kernel
 * ({@link ModelKernel}; no QEMU, a dry run of the booted-machine mode).
 */
public final class KernelSources {
    private KernelSources() {}

    /** The prefix of an {@code --impl} value naming a kernel. */
    public static final String PREFIX = "kernel:";

    /** True when {@code implSpec} names a kernel ({@code kernel:debian-7.3}). */
    public static boolean names(String implSpec) {
        return implSpec.strip().startsWith(PREFIX);
    }

    /**
     * The kernel {@code implSpec} ({@code kernel:SOURCE}) names, fetched and made ready to boot when
     * it is not yet ({@code progress} gets a line per step).
     *
     * @throws IllegalArgumentException {@code --impl kernel:x: ...; expected ...}, or a folder without what a guest needs
     * @throws dev.numaspread.kernel.guest.GuestFailure when QEMU is missing or the guest cannot be made
     * @throws dev.numaspread.kernel.debian.FetchFailure when the kernel cannot be fetched
     * @throws dev.numaspread.kernel.probe.ProbeBuildFailure when the probe cannot be built for it
     */
    public static BootableKernel resolve(String implSpec, Consumer<String> progress) {
        String source = implSpec.strip().substring(PREFIX.length()).strip();
        if (source.isEmpty())
            throw new IllegalArgumentException("--impl kernel: names no kernel; expected kernel:debian-7.3, kernel:7.3.4+deb13-amd64,"
                    + " kernel:/path/to/a/build or kernel:model-7.3");
        if (source.startsWith("model-")) {
            try {
                return new ModelKernel(KernelRelease.modelled(source.substring("model-".length())));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--impl kernel:" + source + ": " + e.getMessage());
            }
        }
        return QemuKernel.of(source, progress);
    }
}
