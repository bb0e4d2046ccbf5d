package dev.numaspread.model.topology;

/**
 * A topology file (or JSON form, or inline doc string) that cannot be loaded. The message has the
 * shape {@code where: what was found; what was expected}, where {@code where} is {@code file:line}
 * ({@code kunpeng.topo:14}) or, for JSON, {@code file:/json/pointer}. Unchecked, so that Cucumber
 * doc string types and CLI code can let it travel to the one place that prints it.
 */
public final class InvalidTopologyException extends RuntimeException {

    private final String where;
    private final String problem;

    /**
     * @param where   {@code file:line} or {@code file:/pointer}
     * @param problem {@code what was found; what was expected}
     */
    public InvalidTopologyException(String where, String problem) {
        super(where + ": " + problem, null, false, false);
        this.where = where;
        this.problem = problem;
    }

    /** The position: {@code kunpeng.topo:14}. */
    public String where() {
        return where;
    }

    /** The message without its position. */
    public String problem() {
        return problem;
    }
}
