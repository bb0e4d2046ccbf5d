package dev.numaspread.conformance.zoo;

/**
 * Slip, 7.0+: a node with more clusters than groups is still dealt cluster by cluster, each cluster
 * taking one group at least, so some groups hold two clusters and the node's sizes are uneven (GRP-13).
 */
final class ClusterStepWhenOutnumbered extends GroupingZooMember.Slipped {
    ClusterStepWhenOutnumbered() { super(SlippedGrouping.Slip.CLUSTER_STEP_WHEN_OUTNUMBERED); }
}
