package dev.numaspread.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code numaspread} launcher script, run with a stand-in {@code java} so that only the script's own work is tested. */
@EnabledOnOs(OS.LINUX)
class LauncherTest {

    /**
     * Found by the second campaign (issue 25): a first run interrupted while it recorded its
     * class list left {@code numaspread-*.jsa.PID} and a 200 KB class list in {@code cli/target/}.
     */
    @Test
    void anInterruptedFirstRunLeavesNothingBehind(@TempDir Path tmp) throws Exception {
        Path root = tmp.resolve("checkout"), target = root.resolve("cli/target"), bin = tmp.resolve("bin");
        Files.createDirectories(target);
        Files.createDirectories(bin);
        Files.copy(Path.of("..", "numaspread"), root.resolve("numaspread"));
        Files.writeString(target.resolve("numaspread.jar"), "");
        // The stand-in writes the class list it is asked for, says it started, and runs until it is stopped.
        Path started = tmp.resolve("started");
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in -XX:DumpLoadedClassList=*) head -c 200000 /dev/zero > \"${a#*=}\";; esac; done\n"
                + "touch '" + started + "'\nexec sleep 60\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(root.resolve("numaspread"), PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("numaspread").toString(), "plan", "--help-not-given")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("NUMASPREAD_CLASSPATH");
        Process p = pb.start();
        for (int i = 0; i < 500 && !Files.exists(started); i++) Thread.sleep(20);
        assertTrue(Files.exists(started), "the launcher started its java");
        assertTrue(leftovers(target).size() >= 2, "the probe and the class list exist while it runs: " + leftovers(target));
        // A CI job cancelled, or Ctrl-C: the launcher and its java are signalled.
        p.destroy();
        p.toHandle().descendants().forEach(ProcessHandle::destroy);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the launcher ended");
        assertEquals(List.of(), leftovers(target));
    }

    /** Each command keeps a class-data archive of its own (issue 26): the launcher names every command Main has. */
    @Test
    void everyCommandHasAnArchiveOfItsOwn() throws Exception {
        String launcher = Files.readString(Path.of("..", "numaspread"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\n {4}([a-z|-]+)\\) command=\"\\$1\" ;;").matcher(launcher);
        assertTrue(m.find(), "the launcher's case of the commands");
        List<String> named = List.of(m.group(1).split("\\|"));
        List<String> commands = Main.COMMANDS.stream().filter(c -> !c.equals(picocli.CommandLine.HelpCommand.class))
                .map(c -> c.getAnnotation(picocli.CommandLine.Command.class).name()).toList();
        assertEquals(commands, named);
    }

    /** What a run of the launcher may leave in {@code cli/target} besides the jar: probes, class lists, unfinished archives. */
    private static List<String> leftovers(Path target) throws Exception {
        try (Stream<Path> s = Files.list(target)) {
            return s.map(x -> x.getFileName().toString()).filter(n -> !n.equals("numaspread.jar")).sorted().toList();
        }
    }
}
