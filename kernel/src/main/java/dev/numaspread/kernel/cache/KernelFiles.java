package dev.numaspread.kernel.cache;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The files of one kernel a guest boots: its image, its modules folder ({@code lib/modules/RELEASE}),
 * the build tree a module is built against ({@code Module.symvers}, {@code .config}, the Makefile)
 * and where numaspread keeps what it builds for it ({@code work}). {@code buildSuite} is the Debian
 * suite whose compiler and C library build modules for it (empty when this machine's tools do:
 * a folder the user built, or a Debian kernel of this machine's release).
 */
public record KernelFiles(String release, Path image, Path modules, Path buildTree, Path work, Optional<String> buildSuite, String origin) {
    public KernelFiles {
        Objects.requireNonNull(release);
        Objects.requireNonNull(image);
        Objects.requireNonNull(modules);
        Objects.requireNonNull(buildTree);
        Objects.requireNonNull(work);
        Objects.requireNonNull(buildSuite);
        Objects.requireNonNull(origin);
    }
}
