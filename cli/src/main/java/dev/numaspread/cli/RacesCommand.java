package dev.numaspread.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * STUB of the kit branch, to be replaced by the branch that owns {@code numaspread races}: it
 * only registers the command and its one-line description.
 */
@Command(name = "races", mixinStandardHelpOptions = true, description = "Explores CPU-hotplug interleavings of a routine and grades the outcomes.")
public final class RacesCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Arguments (the command is being built).")
    List<String> args = List.of();

    @Override
    public Integer call() {
        System.err.println("numaspread races: not built yet in this branch");
        return Main.CHECK_FAILED;
    }
}
