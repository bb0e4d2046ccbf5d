package dev.numaspread.conformance.audit;

/**
 * Something the audit noticed on the machine that is worth a look whatever the release
 * (spec/audit.md AUD-3).
 *
 * @param code a stable word for scripts: {@code offline-effective}, {@code offline-only},
 *             {@code crosses-nodes}, {@code moved}
 * @param text the finding in kernel notation, naming the IRQ or queue
 */
public record Finding(String code, String text) {

    public static final String OFFLINE_EFFECTIVE = "offline-effective";
    public static final String OFFLINE_ONLY = "offline-only";
    public static final String CROSSES_NODES = "crosses-nodes";
    public static final String MOVED = "moved";
}
