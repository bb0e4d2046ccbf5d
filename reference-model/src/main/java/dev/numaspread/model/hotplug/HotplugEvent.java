package dev.numaspread.model.hotplug;

/**
 * One CPU-hotplug event: a CPU going offline or coming online. The writer side of the hotplug lock
 * applies it; while a reader holds {@code cpus_read_lock()} it waits (spec/hotplug.md).
 */
public record HotplugEvent(Kind kind, int cpu) implements Comparable<HotplugEvent> {

    public enum Kind { OFFLINE, ONLINE }

    public HotplugEvent {
        if (kind == null) throw new IllegalArgumentException("hotplug event: no kind; expected OFFLINE or ONLINE");
        if (cpu < 0) throw new IllegalArgumentException("hotplug event: cpu " + cpu + "; expected a CPU id >= 0");
    }

    public static HotplugEvent offline(int cpu) {
        return new HotplugEvent(Kind.OFFLINE, cpu);
    }

    public static HotplugEvent online(int cpu) {
        return new HotplugEvent(Kind.ONLINE, cpu);
    }

    @Override
    public int compareTo(HotplugEvent o) {
        return kind != o.kind ? kind.compareTo(o.kind) : Integer.compare(cpu, o.cpu);
    }

    /** {@code cpu 3 goes offline} / {@code cpu 3 comes online}. */
    @Override
    public String toString() {
        return "cpu " + cpu + (kind == Kind.OFFLINE ? " goes offline" : " comes online");
    }
}
