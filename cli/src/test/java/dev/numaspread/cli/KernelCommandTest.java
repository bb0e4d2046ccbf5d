package dev.numaspread.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The kernel command's answers that need no QEMU and no network: its errors, and an empty cache. */
class KernelCommandTest {

    @TempDir
    Path dir;

    record Result(int code, String out, String err) {}

    @BeforeEach
    void ownCache() {
        System.setProperty("numaspread.cache", dir.resolve("cache").toString());
    }

    @AfterEach
    void noCache() {
        System.clearProperty("numaspread.cache");
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void anEmptyCacheSaysHowToFillIt() {
        Result r = run("kernel", "list");
        assertEquals(0, r.code());
        assertEquals("no kernel in " + dir.resolve("cache/kernels") + "; fetch one: numaspread kernel fetch debian-7.3\n", r.out());
    }

    @Test
    void aSourceThatNamesNoKernelIsAUsageError() {
        Result r = run("kernel", "fetch", "debian");
        assertEquals(2, r.code());
        assertEquals("numaspread kernel fetch: kernel source 'debian': expected debian-X.Y (debian-6.1, debian-6.12, debian-7.2, debian-7.3),"
                + " a Debian release (7.3.4+deb13-amd64, 6.1.0-57-amd64) or a folder with a kernel you built\n", r.err());
    }

    @Test
    void aFolderWithoutABuildTreeIsNamed() throws Exception {
        Path k = Files.createDirectories(dir.resolve("linux"));
        Files.writeString(k.resolve("Makefile"), "");
        Result r = run("kernel", "fetch", k.toString(), "--no-boot");
        assertEquals(1, r.code());
        assertEquals("numaspread kernel fetch: " + k.resolve("Module.symvers") + ": no such file; expected the build tree of a kernel"
                + " (the folder where 'make' ran, with 'make modules' done), so that the probe module can be built against it\n", r.err());
    }

    @Test
    void aMachineQemuCannotBuildIsRefusedBeforeAnythingIsFetched() throws Exception {
        Path topo = dir.resolve("cpu0-offline.topo");
        Files.writeString(topo, "possible 0-3\nonline 1-3\nnode-of 0 0\navailable: 1 nodes (0)\nnode 0 cpus: 1 2 3\n");
        Result r = run("kernel", "run", "debian-7.3", "--topology", topo.toString());
        assertEquals(1, r.code());
        assertEquals("numaspread kernel run: QEMU cannot build this machine: cpu 0 offline: x86 Linux cannot take CPU 0 offline\n", r.err());
        assertFalse(Files.exists(dir.resolve("cache/kernels")));
    }

    @Test
    void noQemuIsSaidBeforeAnythingIsFetched() throws Exception {
        Path topo = dir.resolve("one.topo");
        Files.writeString(topo, "possible 0-1\navailable: 1 nodes (0)\nnode 0 cpus: 0 1\n");
        Result r = run("kernel", "run", "debian-7.3", "--topology", topo.toString(), "--qemu", "/nonexistent/qemu-system-x86_64");
        assertEquals(1, r.code());
        assertEquals("numaspread kernel run: /nonexistent/qemu-system-x86_64 is not installed; booting a kernel needs QEMU"
                + " (apt-get install --no-install-recommends qemu-system-x86)\n", r.err());
        assertFalse(Files.exists(dir.resolve("cache/kernels")));
    }

    @Test
    void aFolderWithoutModulesIsNamed() throws Exception {
        Path k = Files.createDirectories(dir.resolve("linux"));
        for (String f : new String[]{"Makefile", "Module.symvers", ".config"}) Files.writeString(k.resolve(f), "");
        Files.writeString(Files.createDirectories(k.resolve("include/config")).resolve("kernel.release"), "7.3.0-mine\n");
        Files.writeString(Files.createDirectories(k.resolve("arch/x86/boot")).resolve("bzImage"), "");
        Result r = run("kernel", "fetch", k.toString(), "--no-boot");
        assertEquals(1, r.code());
        assertEquals("numaspread kernel fetch: " + k.resolve("lib/modules/7.3.0-mine") + ": no such folder, and no modules.order in " + k
                + "; expected the kernel's modules ('make modules', or 'make modules_install INSTALL_MOD_PATH=" + k + "')\n", r.err());
        assertFalse(Files.exists(dir.resolve("cache/kernels")));
    }

    /**
     * {@code certify --impl kernel:} on a machine whose PATH has no QEMU: one line that says what to
     * install, a usage error (exit 2), nothing fetched, no certificate and no stack trace. The CLI runs
     * in a JVM of its own, its PATH emptied.
     */
    @Test
    void certifyWithoutQemuOnThePathSaysWhatToInstall() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "certify", "--impl", "kernel:debian-7.3", "--machines", "2", "--report", dir.resolve("report").toString());
        pb.environment().put("PATH", dir.resolve("no-bin").toString());
        pb.environment().put("NUMASPREAD_CACHE", dir.resolve("cache").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        String err = new String(p.getErrorStream().readAllBytes());
        assertEquals(2, p.waitFor(), err);
        assertEquals("", out);
        assertEquals("numaspread certify: qemu-system-x86_64 is not installed; booting a kernel needs QEMU"
                + " (apt-get install --no-install-recommends qemu-system-x86)\n", err);
        assertFalse(Files.exists(dir.resolve("cache/kernels")));
        assertFalse(Files.exists(dir.resolve("report/report.json")));
    }
}
