package dev.numaspread.model.pagepool;

import dev.numaspread.model.input.InvalidInputException;

/**
 * An action script that cannot be read. The message has the shape {@code file:line: what was
 * found; what was expected}, as {@code InvalidTopologyException}'s does.
 */
public final class InvalidScriptException extends InvalidInputException {

    /**
     * @param where   {@code file:line}
     * @param problem {@code found ...; expected ...}
     */
    public InvalidScriptException(String where, String problem) {
        super(where, problem);
    }

    /** The same finding, as the script reader reports it (a byte or a size found by {@code model.input}). */
    public static InvalidScriptException of(InvalidInputException e) {
        return e instanceof InvalidScriptException s ? s : new InvalidScriptException(e.where(), e.problem());
    }
}
