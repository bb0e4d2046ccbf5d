package dev.numaspread.model.hotplug;

/** A driver routine run against a {@link Machine}: everything it does to the kernel goes through the machine's services. */
@FunctionalInterface
public interface HotplugRoutine<T> {
    T run(Machine machine);

    /**
     * Returns this routine as a caller that holds {@code cpus_read_lock()} around it runs it: lock,
     * this routine, unlock. A routine that throws leaves the lock held, as a kernel caller that
     * oopses would.
     */
    default HotplugRoutine<T> underCpusReadLock() {
        return m -> {
            m.cpusReadLock();
            T out = run(m);
            m.cpusReadUnlock();
            return out;
        };
    }
}
