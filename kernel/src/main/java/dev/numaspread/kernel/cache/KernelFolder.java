package dev.numaspread.kernel.cache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A kernel the user built, in its build tree (the folder where {@code make} ran): the image
 * {@code arch/x86/boot/bzImage} (or {@code bzImage} at the top), the release
 * {@code include/config/kernel.release}, {@code Module.symvers} and {@code .config} for building the
 * probe against it, and its modules: {@code lib/modules/RELEASE} under the folder
 * ({@code make modules_install INSTALL_MOD_PATH=FOLDER}) or the modules built in the tree
 * ({@code modules.order}); either folder may be a symbolic link. What numaspread builds for it goes to
 * the cache, under a hash of the folder's path.
 */
public final class KernelFolder {

    private KernelFolder() {}

    /**
     * The files of the kernel in {@code dir}.
     *
     * @throws IllegalArgumentException naming the first missing file and what would make it
     */
    public static KernelFiles files(Path dir, KernelCache cache) {
        Path given = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(given))
            throw new IllegalArgumentException(dir + ": no such folder; expected debian-X.Y, a Debian release or a kernel build folder");
        // The guest's modules are found by walking these folders, and a walk does not enter a symbolic link.
        Path d = realPath(given);
        for (String f : List.of("Module.symvers", ".config", "Makefile"))
            if (!Files.isRegularFile(d.resolve(f)))
                throw new IllegalArgumentException(d.resolve(f) + ": no such file; expected the build tree of a kernel (the folder where"
                        + " 'make' ran, with 'make modules' done), so that the probe module can be built against it");
        Path releaseFile = d.resolve("include/config/kernel.release");
        String release;
        try {
            release = Files.isRegularFile(releaseFile) ? Files.readString(releaseFile, StandardCharsets.US_ASCII).strip() : "";
        } catch (IOException e) {
            release = "";
        }
        if (release.isEmpty())
            throw new IllegalArgumentException(releaseFile + ": no such file or empty; expected the release the build wrote (run 'make')");
        String rel = release;
        Path image = Optional.of(d.resolve("arch/x86/boot/bzImage")).filter(Files::isRegularFile)
                .or(() -> Optional.of(d.resolve("bzImage")).filter(Files::isRegularFile))
                .orElseThrow(() -> new IllegalArgumentException(d.resolve("arch/x86/boot/bzImage") + ": no such file; expected the kernel"
                        + " image of an x86-64 build ('make bzImage')"));
        Path installed = d.resolve("lib/modules").resolve(rel);
        Path modules;
        if (Files.isDirectory(installed)) modules = realPath(installed);
        else if (Files.isRegularFile(d.resolve("modules.order"))) modules = d;
        else
            throw new IllegalArgumentException(installed + ": no such folder, and no modules.order in " + d + "; expected the kernel's"
                    + " modules ('make modules', or 'make modules_install INSTALL_MOD_PATH=" + d + "')");
        Path work = cache.kernels().resolve("folder-" + hash(d.toString()) + "-" + rel);
        return new KernelFiles(rel, image, modules, d, work, Optional.empty(), "built in " + d);
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException(p + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    private static String hash(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8))).substring(0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
