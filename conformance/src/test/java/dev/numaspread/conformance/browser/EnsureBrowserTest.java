package dev.numaspread.conformance.browser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code .ci/ensure-browser}, the build step before conformance's tests (conformance/pom.xml): a
 * browser on the PATH is used as it is; without one, Debian's chromium is installed through
 * apt-get (as root, or through sudo); where that cannot be done the build stops with one line
 * saying what to install. Run on a PATH of stand-ins ({@code apt-get}, {@code id}, {@code sudo}),
 * so nothing is installed for real.
 */
class EnsureBrowserTest {

    static final Path SCRIPT = Path.of("..", ".ci", "ensure-browser").toAbsolutePath().normalize();
    static final String WHAT_TO_INSTALL = "[browser] no chromium on the PATH, and it could not be installed here: install Debian's"
            + " chromium (sudo apt-get install -y chromium), or point NUMASPREAD_CHROMIUM at a Chromium binary, or set"
            + " NUMASPREAD_SKIP_BROWSER=1 to skip the browser test explicitly\n";

    record Run(int exit, String out, String err) {}

    static Run run(Path bin, Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("/bin/sh", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().put("PATH", bin.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "ensure-browser hung");
        return new Run(p.exitValue(), out, err);
    }

    /** A stand-in command {@code name} in {@code bin} running {@code body}. */
    static void tool(Path bin, String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A PATH holding {@code env} and an {@code apt-get} that logs its arguments and "installs" chromium into it. */
    static Path machine(Path tmp, int uid) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        tool(bin, "env", "exec /usr/bin/env \"$@\"");
        tool(bin, "true", "exit 0");
        tool(bin, "id", "echo " + uid);
        tool(bin, "apt-get", "echo \"$*\" >> " + tmp.resolve("apt.log") + "\n"
                + "case \"$*\" in *install*chromium*) printf '#!/bin/sh\\n' > " + bin.resolve("chromium") + "; /bin/chmod +x "
                + bin.resolve("chromium") + ";; esac");
        return bin;
    }

    @Test
    void aBrowserOnThePathIsUsedAsItIs(@TempDir Path tmp) throws Exception {
        Path bin = machine(tmp, 0);
        tool(bin, "chromium-browser", "exit 0");
        Run r = run(bin, Map.of());
        assertEquals(new Run(0, "", ""), r);
        assertTrue(Files.notExists(tmp.resolve("apt.log")), "nothing is installed");
    }

    @Test
    void asRootDebiansChromiumIsInstalled(@TempDir Path tmp) throws Exception {
        Path bin = machine(tmp, 0);
        Run r = run(bin, Map.of());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("update -qq\ninstall -y -qq chromium\n", Files.readString(tmp.resolve("apt.log")));
        assertTrue(r.out().endsWith("[browser] installed " + bin.resolve("chromium") + "\n"), r.out());
    }

    @Test
    void notRootItGoesThroughSudo(@TempDir Path tmp) throws Exception {
        Path bin = machine(tmp, 1000);
        tool(bin, "sudo", "echo \"sudo $*\" >> " + tmp.resolve("sudo.log") + "\n[ \"$1\" = -n ] && shift\nexec \"$@\"");
        Run r = run(bin, Map.of());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("sudo -n true\nsudo -n apt-get update -qq\nsudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium\n",
                Files.readString(tmp.resolve("sudo.log")));
    }

    @Test
    void withoutRootOrSudoTheBuildStopsSayingWhatToInstall(@TempDir Path tmp) throws Exception {
        Run r = run(machine(tmp, 1000), Map.of());
        assertEquals(new Run(1, "", WHAT_TO_INSTALL), r);
        assertTrue(Files.notExists(tmp.resolve("apt.log")), "apt-get is not tried without root");
    }

    @Test
    void withoutAptGetTheBuildStopsSayingWhatToInstall(@TempDir Path tmp) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        assertEquals(new Run(1, "", WHAT_TO_INSTALL), run(bin, Map.of()));
    }

    @Test
    void anInstallThatBringsNoBrowserStopsTheBuild(@TempDir Path tmp) throws Exception {
        Path bin = machine(tmp, 0);
        tool(bin, "apt-get", "exit 100");
        Run r = run(bin, Map.of());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().endsWith(WHAT_TO_INSTALL), r.err());
    }

    @Test
    void skippedTestsOrAnExplicitSkipNeedNoBrowser(@TempDir Path tmp) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        assertEquals(new Run(0, "", ""), run(bin, Map.of(), "true", "false"));
        assertEquals(new Run(0, "", ""), run(bin, Map.of(), "false", "true"));
        assertEquals(new Run(0, "[browser] NUMASPREAD_SKIP_BROWSER=1: the browser test is skipped on request\n", ""),
                run(bin, Map.of("NUMASPREAD_SKIP_BROWSER", "1"), "false", "false"));
    }

    @Test
    void aChromiumNamedByTheEnvironmentMustBeThere(@TempDir Path tmp) throws Exception {
        Path bin = machine(tmp, 0);
        Run r = run(bin, Map.of("NUMASPREAD_CHROMIUM", tmp.resolve("nowhere/chrome").toString()));
        assertEquals(1, r.exit(), r.toString());
        assertEquals("[browser] NUMASPREAD_CHROMIUM=" + tmp.resolve("nowhere/chrome") + " is not an executable file; expected a"
                + " Chromium binary (or unset it to use chromium on the PATH)\n", r.err());
        assertTrue(Files.notExists(tmp.resolve("apt.log")), "nothing is installed in place of the named browser");
    }
}
