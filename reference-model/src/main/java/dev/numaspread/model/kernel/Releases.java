package dev.numaspread.model.kernel;

/**
 * Which releases the NUMA and spreading routines model: every release from
 * {@link KernelRelease#OLDEST} (4.1, where {@code cpumask_local_spread} appeared) to
 * {@link KernelRelease#NEWEST}. A routine that appeared later also checks its own first release.
 */
public final class Releases {
    private Releases() {}

    /**
     * Returns normally when {@code kernel} is modelled for {@code routine}.
     *
     * @throws IllegalArgumentException "kernel 7.4: local-spread is modelled for 4.1..7.3"
     */
    public static void requireModelled(KernelRelease kernel, String routine) {
        requireModelled(kernel, routine, KernelRelease.OLDEST, "");
    }

    /**
     * Returns normally when {@code kernel} is modelled for {@code routine}, which exists from
     * {@code since} on ({@code why} names the commit that introduced it).
     */
    public static void requireModelled(KernelRelease kernel, String routine, KernelRelease since, String why) {
        if (!kernel.between(since, KernelRelease.NEWEST) || !kernel.exists())
            throw new IllegalArgumentException("kernel " + kernel + ": " + routine + " is modelled for "
                    + since + ".." + KernelRelease.NEWEST + (kernel.exists() || kernel.compareTo(KernelRelease.NEWEST) > 0 ? "" : " (" + kernel + " never existed)")
                    + (why.isEmpty() ? "" : " (" + why + ")"));
    }
}
