package dev.numaspread.conformance.spi;

import dev.numaspread.model.kernel.KernelRelease;

/** An implementation's claim: it behaves as {@code routine} does in kernel {@code kernel}. */
public record Claim(Routine routine, KernelRelease kernel) {
    public static Claim of(String routineId, String kernel) {
        return new Claim(Routine.byId(routineId).orElseThrow(
                () -> new IllegalArgumentException("unknown routine '" + routineId + "'")), KernelRelease.parse(kernel));
    }

    @Override
    public String toString() {
        return routine.id() + "@" + kernel;
    }
}
