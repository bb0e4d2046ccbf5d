package dev.numaspread.model.topology;

/**
 * Where a piece of a topology came from, for messages: {@code kunpeng.topo:14} (a line of a
 * {@code .topo} file) or {@code t1.json:/nodes/2/cpus} (a JSON pointer, with line 0).
 *
 * @param line  the 1-based line, or 0 when the source has no lines
 * @param where the text a message starts with
 */
public record SourcePosition(int line, String where) {

    /** Line {@code line} of {@code file}: {@code file:line}. */
    public static SourcePosition line(String file, int line) {
        return new SourcePosition(line, file + ":" + line);
    }

    /** A position without a line: a JSON pointer, or the whole input. */
    public static SourcePosition at(String where) {
        return new SourcePosition(0, where);
    }

    @Override
    public String toString() {
        return where;
    }
}
