package dev.numaspread.cli;

import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.model.topology.InvalidTopologyException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code numaspread snapshot FILE.tar}: what numaspread reads on this machine, from {@code /sys}
 * and {@code /proc}, in one tar archive (spec/formats.md FMT-15). Unreadable files are skipped
 * and counted. Every command that takes a topology takes the archive; {@code audit} takes it too.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
        description = {"Copy what numaspread reads on this machine (CPU and node topology, IRQ affinities, /proc/interrupts,"
                + " block queues' cpu_list, PCI devices' numa_node, the kernel release) into a tar archive.",
                "Files the machine refuses to give are skipped and counted. Give the archive to check-topology, plan --topology,"
                        + " races --topology or audit, here or on another machine."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the archive was written (skipped files are counted on stderr)",
                "1:the archive could not be written, or --root has no sys/devices/system",
                "2:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {"  numaspread snapshot my-machine.tar && numaspread check-topology my-machine.tar",
                "  numaspread audit my-machine.tar --identify"})
public final class SnapshotCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.tar", description = "the archive to write")
    Path file;

    @Option(names = "--root", defaultValue = "/", paramLabel = "DIR", hidden = true,
            description = "the file system to read (a copied tree; tests)")
    Path root;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        MachineSnapshot s = MachineSnapshot.capture(root);
        if (s.text("sys/devices/system/cpu/possible").isEmpty()) {
            err.println("numaspread snapshot: " + root.resolve("sys/devices/system/cpu/possible")
                    + ": no such file; expected sysfs mounted at " + root.resolve("sys") + " (is this Linux?)");
            return 1;
        }
        s.write(file);
        out.println(file + ": " + s.entries().size() + " files" + (s.skipped().isEmpty() ? "" : ", " + s.skipped().size()
                + (s.skipped().size() == 1 ? " unreadable file skipped" : " unreadable files skipped") + " (listed in the archive as numaspread/skipped)"));
        try {
            // Read it back as every command will: a machine the topology reader refuses is better known now.
            s.topology();
        } catch (InvalidTopologyException e) {
            err.println("numaspread snapshot: warning: the archive does not read as a topology: " + e.getMessage());
        }
        out.flush();
        err.flush();
        return 0;
    }
}
