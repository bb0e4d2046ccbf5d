package dev.numaspread.conformance.zoo;

/** Slip, 7.0+: a node's clusters of equal size kept in the order they were counted (a stable sort), not the heapsort's (GRP-15). */
final class ClustersStableSort extends GroupingZooMember.Slipped {
    ClustersStableSort() { super(SlippedGrouping.Slip.CLUSTERS_STABLE_SORT); }
}
