package dev.numaspread.model.kernel;

/** Constants of include/linux/numa.h and include/linux/topology.h that the routines use. */
public final class Numa {
    private Numa() {}

    /** {@code NUMA_NO_NODE}: the device does not know its node. */
    public static final int NUMA_NO_NODE = -1;
    /** {@code LOCAL_DISTANCE}: a node's distance to itself. */
    public static final int LOCAL_DISTANCE = 10;
    /** {@code REMOTE_DISTANCE}: the default for two different nodes when firmware gives no table. */
    public static final int REMOTE_DISTANCE = 20;
    /**
     * {@code MAX_NUMNODES}: node ids are 0 to {@value} - 1 ({@code 1 << NODES_SHIFT}, x86-64's and
     * powerpc's {@code NODES_SHIFT} 10 with {@code MAXSMP}, the largest modelled). Every reader
     * refuses a larger id at its token (spec/formats.md FMT-16).
     */
    public static final int MAX_NUMNODES = 1024;
    /** The scheduler accepts distances in [10, 255] ({@code DISTANCE_BITS} 8); otherwise no NUMA levels. */
    public static final int MAX_DISTANCE = 255;
}
