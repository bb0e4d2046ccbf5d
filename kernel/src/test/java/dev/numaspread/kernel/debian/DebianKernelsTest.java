package dev.numaspread.kernel.debian;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DebianKernelsTest {

    static final PackageIndex INDEX = PackageIndex.readLists(PackageIndexTest.lists(), DebianArchive.KERNEL_PACKAGES);

    static DebianKernels on(Optional<Integer> hostDebian) {
        KernelCache cache = new KernelCache(Path.of("/nonexistent"));
        return new DebianKernels(new DebianArchive(cache, s -> {}), () -> INDEX, s -> {}, hostDebian);
    }

    static List<String> names(DebianKernels.KernelPackages k) {
        return k.packages().stream().map(DebianPackage::pinned).toList();
    }

    @Test
    void aSeriesIsItsNewestReleaseWithHeaders() {
        DebianKernels.KernelPackages k = on(Optional.of(12)).resolve(KernelSource.parse("debian-7.3"));
        assertEquals("7.3.4+deb13-amd64", k.release());
        assertEquals("trixie-backports", k.suite());
        assertEquals(List.of("linux-binary-unsigned-7.3.4+deb13-amd64=7.3.4-1~bpo13+1", "linux-modules-7.3.4+deb13-amd64=7.3.4-1~bpo13+1",
                "linux-headers-7.3.4+deb13-amd64=7.3.4-1~bpo13+1", "linux-base-7.3.4+deb13-amd64=7.3.4-1~bpo13+1",
                "linux-headers-7.3.4+deb13-common=7.3.4-1~bpo13+1", "linux-kbuild-7.3.4+deb13=7.3.4-1~bpo13+1"), names(k));
    }

    @Test
    void sixOneTakesTheNewestKbuildItsHeadersAdmit() {
        DebianKernels.KernelPackages k = on(Optional.of(12)).resolve(KernelSource.parse("debian-6.1"));
        assertEquals("6.1.0-57-amd64", k.release());
        assertEquals(List.of("linux-image-6.1.0-57-amd64-unsigned=6.1.192-3", "linux-headers-6.1.0-57-amd64=6.1.192-3",
                "linux-headers-6.1.0-57-common=6.1.192-3", "linux-kbuild-6.1=6.1.192-3"), names(k));
    }

    @Test
    void ofTwoBuildsOfOneVersionTheOneForThisMachinesDebianWins() {
        assertEquals("6.12.117+deb12-amd64", on(Optional.of(12)).resolve(KernelSource.parse("debian-6.12")).release());
        assertEquals("6.12.117+deb13-amd64", on(Optional.of(13)).resolve(KernelSource.parse("debian-6.12")).release());
        // Elsewhere the newer Debian version (6.12.117-1 > 6.12.117-1~deb12u1).
        assertEquals("6.12.117+deb13-amd64", on(Optional.empty()).resolve(KernelSource.parse("debian-6.12")).release());
    }

    @Test
    void theUnsignedImageIsTakenOfTheHeadersAlternatives() {
        DebianKernels.KernelPackages k = on(Optional.of(12)).resolve(KernelSource.parse("6.12.117+deb12-amd64"));
        assertEquals(List.of("linux-image-6.12.117+deb12-amd64-unsigned=6.12.117-1~deb12u1", "linux-headers-6.12.117+deb12-amd64=6.12.117-1~deb12u1",
                "linux-headers-6.12.117+deb12-common=6.12.117-1~deb12u1", "linux-kbuild-6.12.117+deb12=6.12.117-1~deb12u1"), names(k));
        assertEquals(KernelRelease.of(6, 12), k.series());
    }

    @Test
    void aReleaseWithoutHeadersIsNotOffered() {
        assertEquals(List.of("7.3.4+deb13-amd64", "6.12.117+deb13-amd64", "6.12.117+deb12-amd64", "6.1.0-57-amd64"), DebianKernels.releases(INDEX));
        FetchFailure e = assertThrows(FetchFailure.class, () -> on(Optional.of(12)).resolve(KernelSource.parse("6.12.95+deb12-amd64")));
        assertEquals("kernel 6.12.95+deb12-amd64: Debian's archive has its image but not linux-headers-6.12.95+deb12-amd64;"
                + " a probe module cannot be built without them", e.getMessage());
    }

    @Test
    void aSeriesTheArchiveLacksIsNamedWithWhatItHas() {
        FetchFailure e = assertThrows(FetchFailure.class, () -> on(Optional.of(12)).resolve(KernelSource.parse("debian-7.1")));
        assertTrue(e.getMessage().startsWith("debian-7.1: Debian's archive has no 7.1 kernel with headers (it has 7.3, 6.12, 6.1;"), e.getMessage());
        FetchFailure r = assertThrows(FetchFailure.class, () -> on(Optional.of(12)).resolve(KernelSource.parse("7.1.8+deb13-amd64")));
        assertTrue(r.getMessage().startsWith("kernel 7.1.8+deb13-amd64: no such Debian package (linux-image-7.1.8+deb13-amd64-unsigned or"
                + " linux-binary-unsigned-7.1.8+deb13-amd64); Debian's archive has 7.3.4+deb13-amd64, "), r.getMessage());
    }

    @Test
    void sourcesReadAsSeriesReleaseOrFolder() {
        assertEquals(new KernelSource.DebianSeries(KernelRelease.of(6, 12)), KernelSource.parse("debian-6.12"));
        assertEquals(new KernelSource.DebianRelease("6.1.0-57-amd64"), KernelSource.parse("6.1.0-57-amd64"));
        assertEquals(new KernelSource.Folder(Path.of("./linux")), KernelSource.parse("./linux"));
        FetchFailure e = assertThrows(FetchFailure.class, () -> KernelSource.parse("debian"));
        assertTrue(e.getMessage().startsWith("kernel source 'debian': expected debian-X.Y"), e.getMessage());
    }

    @Test
    void theCacheFollowsTheEnvironment() {
        Path home = Path.of("/home/u");
        assertEquals(Path.of("/c"), KernelCache.fromEnvironment(java.util.Map.of("NUMASPREAD_CACHE", "/c"), home).root());
        assertEquals(Path.of("/x/numaspread"), KernelCache.fromEnvironment(java.util.Map.of("XDG_CACHE_HOME", "/x"), home).root());
        assertEquals(Path.of("/home/u/.cache/numaspread"), KernelCache.fromEnvironment(java.util.Map.of(), home).root());
    }

    @Test
    void aDownloadedFileNamesItsVersion() {
        assertEquals("1:2.3-4", DebianArchive.versionInFileName("pkg_1%3a2.3-4_amd64.deb"));
        assertEquals("7.3.4-1~bpo13+1", DebianArchive.versionInFileName("linux-kbuild-7.3.4+deb13_7.3.4-1~bpo13+1_amd64.deb"));
    }
}
