package dev.numaspread.conformance.rules;

import java.util.List;

/**
 * The spec, a feature or a test names rules in a way the registry cannot read. The message holds
 * one line per problem, each {@code file:line: what was found; what was expected}.
 */
public final class InvalidSpecException extends IllegalArgumentException {

    private final List<String> problems;

    public InvalidSpecException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** One entry per problem, in file and line order. */
    public List<String> problems() {
        return problems;
    }
}
