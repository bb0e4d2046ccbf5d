package dev.numaspread.cli;

import dev.numaspread.conformance.audit.Audit;
import dev.numaspread.conformance.audit.AuditText;
import dev.numaspread.conformance.audit.Device;
import dev.numaspread.conformance.audit.Devices;
import dev.numaspread.conformance.audit.Identify;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.Topology;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

// Alike on purpose (duplicates, issue 26) with SnapshotCommand: a picocli command's header and first options.
/**
 * {@code numaspread audit SNAPSHOT|--live}: the machine's devices, each compared with what the
 * model gives for the release it runs (spec/audit.md). Exit 0 when no device differs, 1 when one
 * does or the snapshot is bad, 2 for a usage error.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Find a machine's devices (mlx5, mana, nvme and virtio-blk IRQs in /proc/interrupts; block devices' mq/"
                + " queues), compare each IRQ's affinity and each queue's CPUs with the reference model for the release the"
                + " machine runs, and print MATCH or the first difference per device, then findings (IRQs on offline CPUs,"
                + " queues that cross nodes, affinity moved by something else).",
                "--identify also names every modelled release that explains what the machine shows."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no device differs from the audited release, and every part of the machine was audited",
                "1:a device differs, part of the machine could not be audited (no proc/interrupts), or the snapshot is bad"
                        + " (the message names FILE.tar:PATH)",
                "2:usage error (no snapshot, an unknown release)"},
        footerHeading = "%nExamples:%n",
        footer = {"  numaspread audit --live --identify",
                "  numaspread audit fixtures/snapshots/a-2node-2s2c2t-linux-6.1-boot.tar --kernel 6.12"})
public final class AuditCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "an archive written by 'numaspread snapshot'")
        Path snapshot;

        @Option(names = "--live", description = "read this machine's /sys and /proc instead of an archive")
        boolean live;
    }

    @Option(names = "--identify", description = "also audit every modelled release and name those that explain what the machine shows")
    boolean identify;

    @Option(names = "--kernel", paramLabel = "X.Y", description = "audit as this release instead of the one the machine runs")
    String kernel;

    @Option(names = "--root", defaultValue = "/", paramLabel = "DIR", hidden = true, description = "--live: the file system to read (tests)")
    Path root;

    @Override
    public Integer call() {
        // Every text of a snapshot comes from outside (a handler name, a block device, osrelease): the
        // output goes through one escaping path (FMT-19), so no escape sequence reaches the terminal.
        PrintWriter out = printable(spec.commandLine().getOut(), true), err = printable(spec.commandLine().getErr(), false);
        MachineSnapshot s;
        Topology m;
        List<Device> devices;
        try {
            s = source.live ? MachineSnapshot.capture(root) : MachineSnapshot.read(source.snapshot);
            m = s.topology().topology();
            devices = Devices.find(s, m);
        } catch (InvalidTopologyException e) {
            err.println("numaspread audit: " + e.getMessage());
            err.flush();
            return 1;
        }
        List<String> unaudited = Devices.unaudited(s);
        Optional<KernelRelease> running = s.osrelease().flatMap(AuditCommand::modelled);
        Optional<KernelRelease> audited;
        try {
            audited = kernel != null ? Optional.of(KernelOption.release(kernel, err, "audit")) : running;
        } catch (IllegalArgumentException e) {
            err.println("numaspread audit: " + e.getMessage());
            err.flush();
            return 2;
        }
        if (audited.isEmpty() && !identify) {
            err.println("numaspread audit: " + s.where("proc/sys/kernel/osrelease") + ": "
                    + s.osrelease().map(o -> "Linux " + o + " is not a modelled release (" + KernelRelease.OLDEST + " to " + KernelRelease.NEWEST + ")")
                    .orElse("no such file") + "; expected a release to audit against: give --kernel X.Y, or --identify");
            err.flush();
            return 2;
        }
        int code = unaudited.isEmpty() ? 0 : 1;
        String where = source.live ? "this machine (" + root + ")" : source.snapshot.toString();
        if (audited.isPresent()) {
            Audit.Result r = Audit.audit(m, devices, audited.get());
            out.print(AuditText.header(where, m, s.skipped().size(), s.osrelease(), audited.get()));
            out.print(AuditText.devices(r, unaudited));
            if (r.devices().stream().anyMatch(d -> d.outcome() instanceof Audit.Differs)) code = 1;
        } else {
            out.print("snapshot  " + where + "\nkernel    " + s.osrelease().map(o -> "Linux " + o + " (not a modelled release)").orElse("unknown") + "\n");
            for (String u : unaudited) out.print("NOT-AUDITED   " + u + "\n");
        }
        if (identify) {
            List<Audit.Result> every = Identify.everyRelease(m, devices);
            out.print("\n" + AuditText.identify(every, devices, running));
            if (audited.isEmpty() && Identify.explaining(every).isEmpty()) code = 1;
        }
        out.flush();
        err.flush();
        return code;
    }

    /** A writer that escapes what it is given (Printable: keeping line ends when {@code lines}) before {@code to} sees it. */
    static PrintWriter printable(PrintWriter to, boolean lines) {
        return new PrintWriter(new java.io.Writer() {
            @Override public void write(char[] b, int off, int len) {
                String text = new String(b, off, len);
                // println's line separator is the writer's own, not text from outside.
                to.write(lines ? Printable.ofLines(text) : String.join("\n", java.util.Arrays.stream(text.split("\n", -1)).map(Printable::of).toList()));
            }

            @Override public void flush() {
                to.flush();
            }

            @Override public void close() {
                to.flush();
            }
        });
    }

    /** The modelled series of an {@code osrelease} string ({@code 6.12.117+deb12-amd64} is 6.12), if it is one. */
    private static Optional<KernelRelease> modelled(String osrelease) {
        try {
            return Optional.of(KernelRelease.modelled(osrelease));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
