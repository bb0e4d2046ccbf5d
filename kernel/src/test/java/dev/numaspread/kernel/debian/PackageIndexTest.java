package dev.numaspread.kernel.debian;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PackageIndexTest {

    static Path lists() {
        try {
            return Path.of(PackageIndexTest.class.getResource("deb.debian.org_debian_dists_trixie_main_binary-amd64_Packages").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void readsTheStanzasOfEverySuiteFile() {
        PackageIndex index = PackageIndex.readLists(lists(), DebianArchive.KERNEL_PACKAGES);
        List<DebianPackage> kbuild = index.versions("linux-kbuild-6.1");
        assertEquals(List.of("6.1.176-1 bookworm", "6.1.192-3 bookworm-security"),
                kbuild.stream().map(p -> p.version() + " " + p.suite()).toList());
        DebianPackage headers = index.versions("linux-headers-6.12.117+deb12-amd64").get(0);
        assertEquals(5, headers.depends().size());
        assertEquals("[linux-image-6.12.117+deb12-amd64 (= 6.12.117-1~deb12u1), linux-image-6.12.117+deb12-amd64-unsigned (= 6.12.117-1~deb12u1)]",
                headers.depends().get(2).toString());
        assertEquals(3_271_240L, headers.size());
        assertEquals("pool/updates/main/l/linux/linux-headers-6.12.117+deb12-amd64_6.12.117-1~deb12u1_amd64.deb", headers.filename());
    }

    @Test
    void skipsPackagesThePredicateRefuses() {
        PackageIndex index = PackageIndex.readLists(lists(), DebianArchive.KERNEL_PACKAGES);
        assertTrue(index.versions("pahole").isEmpty());
        assertFalse(index.versions("linux-image-7.3.4+deb13-amd64").isEmpty());
    }

    @Test
    void aContinuationLineJoinsTheFieldBeforeIt() throws Exception {
        String text = "Package: linux-x\nVersion: 1\nDepends: a,\n b (>= 2)\nDescription: one\n two\nFilename: f\n\n";
        PackageIndex index = PackageIndex.read(new BufferedReader(new StringReader(text)), "sid", n -> true);
        DebianPackage p = index.versions("linux-x").get(0);
        assertEquals("[[a], [b (>= 2)]]", p.depends().toString());
        assertEquals("f", p.filename());
        assertEquals("sid", p.suite());
    }

    @Test
    void aLastStanzaWithoutATrailingBlankLineCounts() throws Exception {
        PackageIndex index = PackageIndex.read(new BufferedReader(new StringReader("Package: a\nVersion: 1")), "sid", n -> true);
        assertEquals("1", index.versions("a").get(0).version());
    }

    @Test
    void newestHonoursTheRelation() {
        PackageIndex index = PackageIndex.readLists(lists(), DebianArchive.KERNEL_PACKAGES);
        assertEquals(Optional.of("6.1.192-3"), index.newest(new DebianPackage.Dependency("linux-kbuild-6.1", ">=", "6.1.192-3")).map(DebianPackage::version));
        assertEquals(Optional.of("6.1.176-1"), index.newest(new DebianPackage.Dependency("linux-kbuild-6.1", "<<", "6.1.192")).map(DebianPackage::version));
        assertEquals(Optional.empty(), index.newest(new DebianPackage.Dependency("linux-kbuild-6.1", "=", "6.1.0-1")));
    }

    @Test
    void writesAndReadsBackTheKeptPackages(@org.junit.jupiter.api.io.TempDir Path dir) {
        PackageIndex index = PackageIndex.readLists(lists(), DebianArchive.KERNEL_PACKAGES);
        index.write(dir.resolve("kept"));
        PackageIndex again = PackageIndex.readKept(dir.resolve("kept"));
        assertEquals(index.names(), again.names());
        for (String n : index.names()) assertEquals(index.versions(n), again.versions(n), n);
    }

    @Test
    void theSuiteComesFromTheListsFileName() {
        assertEquals(Optional.of("bookworm-security"),
                PackageIndex.suiteOfListsFile("deb.debian.org_debian-security_dists_bookworm-security_main_binary-amd64_Packages"));
        assertEquals(Optional.empty(), PackageIndex.suiteOfListsFile("deb.debian.org_debian_dists_sid_InRelease"));
    }
}
