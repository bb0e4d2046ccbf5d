package dev.numaspread.model.topology;

import dev.numaspread.model.input.InvalidInputException;

/**
 * A topology file (or JSON form, sysfs snapshot, or inline doc string) that cannot be loaded. The
 * message has the shape {@code where: what was found; what was expected}, where {@code where} is
 * {@code file:line} ({@code kunpeng.topo:14}), {@code file:line:col} for a token or a byte,
 * {@code file:/json/pointer} for JSON. Unchecked, so that Cucumber doc string types and CLI code
 * can let it travel to the one place that prints it.
 */
public final class InvalidTopologyException extends InvalidInputException {

    /**
     * @param where   {@code file:line} or {@code file:/pointer}
     * @param problem {@code what was found; what was expected}
     */
    public InvalidTopologyException(String where, String problem) {
        super(where, problem);
    }

    /** The same finding, as a topology reader reports it (a byte or a size found by {@code model.input}). */
    public static InvalidTopologyException of(InvalidInputException e) {
        return e instanceof InvalidTopologyException t ? t : new InvalidTopologyException(e.where(), e.problem());
    }
}
