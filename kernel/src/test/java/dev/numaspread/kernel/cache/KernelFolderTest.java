package dev.numaspread.kernel.cache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A kernel the user built, read from its build folder: the files found, and what is missing said. */
class KernelFolderTest {

    static Path buildFolder(Path dir) throws IOException {
        for (String f : new String[] {"Module.symvers", ".config", "Makefile", "arch/x86/boot/bzImage"}) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), "");
        }
        Files.createDirectories(dir.resolve("include/config"));
        Files.writeString(dir.resolve("include/config/kernel.release"), "6.1.0-57-amd64\n");
        return dir;
    }

    /**
     * Modules installed elsewhere and linked in ({@code lib/modules/RELEASE -> ...}) are found: the
     * guest's modules are found by a walk of the folder, which does not enter a link, and 6.1's
     * folder so linked once failed with "no module virtio_pci".
     */
    @Test
    void aLinkedModulesFolderIsReadWhereItPoints(@TempDir Path tmp) throws IOException {
        Path build = buildFolder(tmp.resolve("linux"));
        Path installed = Files.createDirectories(tmp.resolve("installed/6.1.0-57-amd64/kernel/drivers/virtio"));
        Files.writeString(installed.resolve("virtio_pci.ko"), "");
        Files.createDirectories(build.resolve("lib/modules"));
        Files.createSymbolicLink(build.resolve("lib/modules/6.1.0-57-amd64"), tmp.resolve("installed/6.1.0-57-amd64"));
        KernelFiles k = KernelFolder.files(build, new KernelCache(tmp.resolve("cache")));
        assertEquals("6.1.0-57-amd64", k.release());
        assertEquals(tmp.resolve("installed/6.1.0-57-amd64").toRealPath(), k.modules());
        assertEquals(build.resolve("arch/x86/boot/bzImage").toRealPath(), k.image());
        try (var s = Files.walk(k.modules())) {
            assertTrue(s.anyMatch(p -> p.getFileName().toString().equals("virtio_pci.ko")));
        }
    }

    @Test
    void aFolderWithoutModulesSaysHowToMakeThem(@TempDir Path tmp) throws IOException {
        Path build = buildFolder(tmp.resolve("linux"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KernelFolder.files(build, new KernelCache(tmp.resolve("cache"))));
        assertEquals(build.toRealPath().resolve("lib/modules/6.1.0-57-amd64") + ": no such folder, and no modules.order in "
                + build.toRealPath() + "; expected the kernel's modules ('make modules', or 'make modules_install INSTALL_MOD_PATH="
                + build.toRealPath() + "')", e.getMessage());
    }
}
