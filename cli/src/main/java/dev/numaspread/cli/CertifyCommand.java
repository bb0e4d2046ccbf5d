package dev.numaspread.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * STUB of the kit branch, to be replaced by the branch that owns {@code numaspread certify}: it
 * only registers the command and its one-line description.
 */
@Command(name = "certify", mixinStandardHelpOptions = true, description = "Certifies an implementation (the bundled example by default) and prints its certificate.")
public final class CertifyCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Arguments (the command is being built).")
    List<String> args = List.of();

    @Override
    public Integer call() {
        System.err.println("numaspread certify: not built yet in this branch");
        return Main.CHECK_FAILED;
    }
}
