package dev.numaspread.conformance.spi;

import dev.numaspread.model.kernel.KernelRelease;

/** An implementation's claim: it behaves as {@code routine} does in kernel {@code kernel}. */
public record Claim(Routine routine, KernelRelease kernel) {

    /**
     * The claim of routine {@code routineId} as release {@code kernel} has it.
     *
     * <p>Example: {@code Claim.of("local-spread", "6.12")} claims {@code cpumask_local_spread} as 6.12 has it.
     *
     * @param routineId a routine's id as {@code numaspread rules} and {@link Routine#id()} spell it
     *                  ({@code local-spread}, {@code group-cpus})
     * @param kernel    a modelled release series ({@code 6.12}); a point release or a uname string
     *                  ({@code 6.12.3}) means its series
     * @return the claim; never null
     * @throws IllegalArgumentException for an unknown routine id, or a release that is not modelled
     */
    public static Claim of(String routineId, String kernel) {
        return new Claim(Routine.byId(routineId).orElseThrow(
                () -> new IllegalArgumentException("unknown routine '" + routineId + "'")), KernelRelease.modelled(kernel));
    }

    /**
     * The claim as certificates print it.
     *
     * <p>Example: {@code Claim.of("local-spread", "6.12").toString()} is {@code "local-spread@6.12"}.
     *
     * @return {@code ROUTINE@RELEASE}
     */
    @Override
    public String toString() {
        return routine.id() + "@" + kernel;
    }

    // Written out, as the record would have them: every guarded call looks its claim up in a set,
    // and a record's own equals and hashCode are method-handle chains that C1, the only compiler of
    // the tests' and the command line's JVMs, does not inline (benchmarks/README.md, "mvn verify").
    @Override
    public boolean equals(Object o) {
        return o instanceof Claim c && routine == c.routine && kernel.equals(c.kernel);
    }

    @Override
    public int hashCode() {
        return 31 * routine.hashCode() + kernel.hashCode();
    }
}
