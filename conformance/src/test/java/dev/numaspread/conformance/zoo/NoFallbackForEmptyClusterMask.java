package dev.numaspread.conformance.zoo;

/**
 * Slip, 7.0+: the clusters are read from the hardware list instead of the live
 * {@code topology_cluster_cpumask()}, so an offline CPU is dealt with its cluster and never turns
 * the cluster step off for its node (GRP-13).
 */
final class NoFallbackForEmptyClusterMask extends GroupingZooMember.Slipped {
    NoFallbackForEmptyClusterMask() { super(SlippedGrouping.Slip.NO_EMPTY_MASK_FALLBACK); }
}
