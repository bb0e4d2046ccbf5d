package dev.numaspread.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/**
 * The machine {@code plan} and {@code races} work on (a picocli mixin), given as {@code FILE} or as
 * {@code --topology FILE}. {@code check-topology} takes its file without an option, so a user who
 * has just checked {@code box.topo} types {@code plan box.topo ...} next; both spellings are kept,
 * because scripts and the README already use {@code --topology}.
 */
final class MachineOption {

    static final String WHAT = "the machine: a .topo or .json file, an archive of 'numaspread snapshot', or a sysfs copy directory";

    @Option(names = "--topology", paramLabel = "FILE", description = WHAT + " (or give FILE without the option)")
    Path option;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = WHAT + "; the same as --topology FILE")
    Path positional;

    /**
     * The machine's path.
     *
     * @throws IllegalArgumentException when no machine or two different ones are given
     */
    Path path() {
        if (option == null && positional == null)
            throw new IllegalArgumentException("no machine given; expected FILE or --topology FILE (a .topo, .json, snapshot archive or sysfs copy)");
        if (option != null && positional != null && !option.equals(positional))
            throw new IllegalArgumentException("two machines given, " + positional + " and --topology " + option + "; expected one");
        return option != null ? option : positional;
    }
}
