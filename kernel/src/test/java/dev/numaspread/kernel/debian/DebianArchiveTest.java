package dev.numaspread.kernel.debian;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.host.HostCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A download that fails is a {@link FetchFailure} naming the package and apt's own words, and leaves no file behind. */
class DebianArchiveTest {

    @TempDir Path dir;

    @Test
    void aDownloadThatFailsNamesThePackageAndWhatAptSaid() {
        boolean apt = HostCommand.installed("apt-get");
        if (!apt && "true".equals(System.getenv("CI"))) fail("apt-get is not installed (CI=true: .ci/run runs on Debian)");
        assumeTrue(apt, "apt-get is not installed");
        // A private configuration whose lists were never updated: apt knows no package, so the download fails offline.
        DebianArchive archive = new DebianArchive(new KernelCache(dir.resolve("cache")), s -> {});
        DebianPackage gone = new DebianPackage("linux-image-0.0.0-gone-amd64", "0.0.0-1", "sid", List.of(),
                "pool/main/l/linux/linux-image-0.0.0-gone-amd64_0.0.0-1_amd64.deb", 1);
        Path into = dir.resolve("debs");
        FetchFailure e = assertThrows(FetchFailure.class, () -> archive.download(gone, into));
        assertTrue(e.getMessage().startsWith("downloading linux-image-0.0.0-gone-amd64=0.0.0-1 failed: "), e.getMessage());
        assertTrue(e.getMessage().contains("E: "), "apt's words: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertEquals(List.of(), list(into));
    }

    private static List<String> list(Path d) {
        try (var s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
