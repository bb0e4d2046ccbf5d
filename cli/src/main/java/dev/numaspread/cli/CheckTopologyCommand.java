package dev.numaspread.cli;

import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.json.TopologyJson;
import dev.numaspread.model.numa.ArchSchedNodeDistance;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.TopologyDescription;
import dev.numaspread.model.topology.TopologyValidation.Mode;
import dev.numaspread.model.topology.TopologyWarning;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code numaspread check-topology FILE}: validates a topology file and describes the machine. */
@Command(name = "check-topology",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        headerHeading = "%n",
        header = "Validate a topology (.topo, .json or a sysfs snapshot directory) and describe the machine.",
        descriptionHeading = "%nDescription:%n",
        description = {
                "Reads FILE (numactl -H output plus directives, an lscpu -p block, the JSON form, an archive of 'numaspread"
                        + " snapshot', or a directory holding a copy of /sys/devices/system; see spec/formats.md),"
                        + " checks the kernel's rules (spec/topology.md) and prints the nodes with their CPUs, SMT, packages,"
                        + " the NUMA levels over the nodes with CPUs, and every warning (asymmetric or non-metric table,"
                        + " CPU-less or memory-less nodes, node 0 not representative, sparse node ids).",
                "",
                "A file with an 'expect' line is checked in lenient mode: broken kernel rules become warnings. Any other"
                        + " file is checked in strict mode. --strict and --lenient override the file."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:the topology is valid (warnings may be printed)",
                "1:the topology is invalid; the message on stderr is FILE:LINE: what was found; what was expected",
                "2:usage error (unknown option, missing FILE)"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  numaspread check-topology fixtures/topologies/kunpeng920-4node.topo",
                "  numaspread check-topology --format json machine.topo > machine.json",
                "  numaspread check-topology --format topo snap > fixtures/topologies/my-machine.topo",
                "  numaspread snapshot snap.tar && numaspread check-topology snap.tar",
                "  numaspread check-topology --strict fixtures/topologies/patho-slit-invalid.topo"})
public final class CheckTopologyCommand implements Callable<Integer> {

    /** Output formats. */
    public enum Format { text, json, topo }

    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The topology: a .topo file, a .json file in the JSON form, an archive of 'numaspread snapshot FILE.tar',"
            + " or a directory holding a copy of /sys/devices/system.")
    Path file;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default): a description for people; json: the canonical JSON form of the machine;"
                    + " topo: the canonical .topo text, ready for fixtures/topologies/ (warnings go to stderr)."
                    + " Valid values: ${COMPLETION-CANDIDATES}.")
    Format format = Format.text;

    @ArgGroup(exclusive = true)
    ModeChoice modeChoice;

    static final class ModeChoice {
        @Option(names = "--strict", description = "Reject any broken kernel rule, even in a file with an 'expect' line.")
        boolean strict;

        @Option(names = "--lenient", description = "Report broken kernel rules as warnings, even in a file without an 'expect' line.")
        boolean lenient;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Mode> forced = modeChoice == null ? Optional.empty()
                : Optional.of(modeChoice.strict ? Mode.STRICT : Mode.LENIENT);
        TopoDocument doc;
        try {
            doc = TopologyFiles.read(file, forced);
        } catch (InvalidTopologyException e) {
            err.println(Printable.of(e.getMessage()));
            err.flush();
            return 1;
        }
        Mode mode = forced.orElse(doc.expect().isEmpty() ? Mode.STRICT : Mode.LENIENT);
        if (format != Format.text) {
            out.print(format == Format.json ? TopologyJson.write(doc) : TopoFormat.write(doc));
            for (TopologyWarning w : doc.warnings()) err.println(Printable.of(file + ":" + w.line() + ": warning: " + w.code() + ": " + w.message()));
        } else {
            TopologyDescription.describe(doc, mode, ArchSchedNodeDistance.describePerRelease(doc.topology())).forEach(out::println);
        }
        out.flush();
        err.flush();
        return 0;
    }
}
