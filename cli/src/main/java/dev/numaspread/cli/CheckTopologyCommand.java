package dev.numaspread.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * STUB of the kit branch, to be replaced by the branch that owns {@code numaspread check-topology}: it
 * only registers the command and its one-line description.
 */
@Command(name = "check-topology", mixinStandardHelpOptions = true, description = "Validates a topology file (.topo, numactl -H, lscpu -p, JSON) and describes it.")
public final class CheckTopologyCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Arguments (the command is being built).")
    List<String> args = List.of();

    @Override
    public Integer call() {
        System.err.println("numaspread check-topology: not built yet in this branch");
        return Main.CHECK_FAILED;
    }
}
