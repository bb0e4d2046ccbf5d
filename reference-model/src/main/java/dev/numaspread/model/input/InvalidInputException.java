package dev.numaspread.model.input;

/**
 * Outside input that cannot be read: the caller's fault, never ours, and never a {@code KernelBug}. The message has
 * the shape {@code where: what was found; what was expected}, where {@code where} is
 * {@code file:line}, {@code file:line:col}, {@code file:/json/pointer} or {@code archive.tar:path};
 * one line, the values it quotes cut and escaped ({@link Printable#quote}). Each reader throws its
 * own kind ({@code InvalidTopologyException}, {@code InvalidScriptException}). An
 * {@link IllegalArgumentException}, as the command line treats invalid input: one line, exit 1.
 */
public class InvalidInputException extends IllegalArgumentException {

    private final String where;
    private final String problem;

    /**
     * @param where   {@code file:line}, {@code file:line:col} or {@code file:/pointer}
     * @param problem {@code what was found; what was expected}
     */
    public InvalidInputException(String where, String problem) {
        super(where + ": " + problem);
        this.where = where;
        this.problem = problem;
    }

    /** No stack trace: the message says all, and a fuzz campaign makes thousands of these. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
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
