package dev.numaspread.conformance.zoo;

/**
 * Slip, 7.0+: the clusters get their shares in the heapsort's order but are dealt into the groups
 * in the order they were counted (ascending lowest CPU), so the split cluster is no longer last (GRP-15).
 */
final class ClustersDealtAsCounted extends GroupingZooMember.Slipped {
    ClustersDealtAsCounted() { super(SlippedGrouping.Slip.CLUSTERS_DEALT_AS_COUNTED); }
}
