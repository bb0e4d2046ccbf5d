package dev.numaspread.kernel.source;

import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.*;

/** A tree's release from its Makefile, and the usage errors of a folder that is not a usable tree. */
class KernelTreeTest {

    /** A tree of our own: a Makefile and the four files, each holding {@code text}. */
    static Path tree(Path dir, String makefile, String text) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("Makefile"), makefile);
        for (String f : KernelTree.FILES) {
            Files.createDirectories(dir.resolve(f).getParent());
            Files.writeString(dir.resolve(f), text);
        }
        return dir;
    }

    @Test
    void releaseIsReadFromTheMakefile(@TempDir Path dir) throws IOException {
        KernelTree t = KernelTree.open(tree(dir, "# SPDX\nVERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\nEXTRAVERSION =\nNAME = Baby Opossum Posse\n", ""));
        assertEquals("7.3.4", t.version());
        assertEquals(KernelRelease.of(7, 3), t.series());
        assertEquals(KernelRelease.of(6, 12), t.claimed(Optional.of(KernelRelease.of(6, 12))));
    }

    @Test
    void aReleaseCandidateKeepsItsExtraVersion(@TempDir Path dir) throws IOException {
        assertEquals("6.19-rc3", KernelTree.open(tree(dir, "VERSION = 6\nPATCHLEVEL = 19\nSUBLEVEL = 0\nEXTRAVERSION = -rc3\n", "")).version());
    }

    @Test
    void aFolderThatIsNoKernelTreeIsAUsageErrorNamingTheMakefile(@TempDir Path dir) throws IOException {
        UnusableTree e = assertThrows(UnusableTree.class, () -> KernelTree.open(dir));
        assertEquals(dir.resolve("Makefile") + ": not found; expected the top Makefile of a kernel source tree (VERSION = 7, PATCHLEVEL = 3, ...)",
                e.getMessage());
        Files.writeString(dir.resolve("Makefile"), "all:\n\techo hi\n");
        e = assertThrows(UnusableTree.class, () -> KernelTree.open(dir));
        assertTrue(e.getMessage().startsWith(dir.resolve("Makefile") + ": found no VERSION line; expected the top Makefile"), e.getMessage());
        e = assertThrows(UnusableTree.class, () -> KernelTree.open(dir.resolve("nope")));
        assertTrue(e.getMessage().startsWith(dir.resolve("nope") + ": no such folder; expected a kernel source tree"), e.getMessage());
    }

    @Test
    void aMissingFileIsAUsageErrorNamingIt(@TempDir Path dir) throws IOException {
        tree(dir, "VERSION = 6\nPATCHLEVEL = 2\nSUBLEVEL = 16\n", "");
        Files.delete(dir.resolve("lib/group_cpus.c"));
        UnusableTree e = assertThrows(UnusableTree.class, () -> KernelTree.open(dir));
        assertTrue(e.getMessage().startsWith(dir.resolve("lib/group_cpus.c") + ": not found; expected group_cpus_evenly() in a kernel"
                + " source tree of 6.2.16 (group_cpus_evenly() is in lib/ from 6.3"), e.getMessage());
    }

    @Test
    void aReleaseWithoutTheRoutinesInTheModelIsAUsageError(@TempDir Path dir) throws IOException {
        KernelTree t = KernelTree.open(tree(dir, "VERSION = 7\nPATCHLEVEL = 9\n", ""));
        UnusableTree e = assertThrows(UnusableTree.class, () -> KernelSrc.claimed(t, Optional.empty()));
        assertTrue(e.getMessage().startsWith(dir.resolve("Makefile") + ": 7.9 is past the newest release numaspread models"), e.getMessage());
        assertEquals(KernelRelease.of(7, 3), KernelSrc.claimed(t, Optional.of(KernelRelease.of(7, 3))));
        e = assertThrows(UnusableTree.class, () -> KernelSrc.claimed(t, Optional.of(KernelRelease.of(6, 2))));
        assertTrue(e.getMessage().startsWith("--kernel 6.2 has no group_cpus_evenly() in numaspread's model"), e.getMessage());
    }
}
