package dev.numaspread.model.hotplug;

/** A driver routine run against a {@link Machine}: everything it does to the kernel goes through the machine's services. */
@FunctionalInterface
public interface HotplugRoutine<T> {
    T run(Machine machine);
}
