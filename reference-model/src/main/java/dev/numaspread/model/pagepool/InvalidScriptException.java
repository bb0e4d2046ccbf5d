package dev.numaspread.model.pagepool;

/**
 * An action script that cannot be read. The message has the shape {@code file:line: what was
 * found; what was expected}, as {@code InvalidTopologyException}'s does.
 */
public final class InvalidScriptException extends RuntimeException {

    private final String where;
    private final String problem;

    /**
     * @param where   {@code file:line}
     * @param problem {@code found ...; expected ...}
     */
    public InvalidScriptException(String where, String problem) {
        super(where + ": " + problem, null, false, false);
        this.where = where;
        this.problem = problem;
    }

    public String where() { return where; }

    public String problem() { return problem; }
}
