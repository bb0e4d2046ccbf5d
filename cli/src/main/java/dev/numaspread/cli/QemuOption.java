package dev.numaspread.cli;

import dev.numaspread.kernel.guest.QemuGuest;
import picocli.CommandLine.Option;

import java.util.function.Consumer;

/** The QEMU that {@code kernel fetch} and {@code kernel run} boot with (a picocli mixin). */
final class QemuOption {

    @Option(names = "--qemu", paramLabel = "PROGRAM", defaultValue = "qemu-system-x86_64",
            description = "the QEMU to boot with (default: ${DEFAULT-VALUE})")
    String program;

    /** The guest's default options, booting with this QEMU and telling {@code progress} how it goes. */
    QemuGuest.Options options(Consumer<String> progress) {
        return QemuGuest.Options.defaults(progress).withQemu(program);
    }
}
