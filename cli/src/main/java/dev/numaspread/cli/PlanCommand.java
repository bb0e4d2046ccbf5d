package dev.numaspread.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * STUB of the kit branch, to be replaced by the branch that owns {@code numaspread plan}: it
 * only registers the command and its one-line description.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, description = "Prints the plan a routine makes on a machine (which CPU each queue or IRQ gets).")
public final class PlanCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Arguments (the command is being built).")
    List<String> args = List.of();

    @Override
    public Integer call() {
        System.err.println("numaspread plan: not built yet in this branch");
        return Main.CHECK_FAILED;
    }
}
