package dev.numaspread.model.topology;

import java.util.Objects;

/**
 * A fact about a loaded topology that a reader should know: a kernel rule the file breaks (in
 * lenient mode) or a legal but unusual shape (asymmetric table, CPU-less node, ...).
 *
 * @param line    the line of the file that caused it, or 0 when there is no line (JSON, code)
 * @param code    a stable tag, the same word an {@code expect} line uses ({@code asymmetric},
 *                {@code non-metric}, {@code cpuless-nodes}, ...)
 * @param message what was found, in kernel notation
 */
public record TopologyWarning(int line, String code, String message) {
    public TopologyWarning {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    /** {@code line 14: asymmetric: ...}, or without the line when there is none. */
    @Override
    public String toString() {
        return (line > 0 ? "line " + line + ": " : "") + code + ": " + message;
    }
}
