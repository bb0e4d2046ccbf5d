package dev.numaspread.conformance.zoo;

/**
 * Slip, 7.0+ (issue 24, gap 4): a node's clusters taken from the hardware cluster masks and the
 * stage's CPUs, not cut at the node boundary as x86's {@code topology_sane()} cuts them (TOPO-15).
 * Right on every machine whose clusters lie inside nodes; on a cluster across two nodes, the CPUs
 * of the other node are dealt with this node's groups and again with their own, so they sit in two
 * groups (GRP-1).
 */
final class ClusterNotCutAtNode extends GroupingZooMember.Slipped {
    ClusterNotCutAtNode() { super(SlippedGrouping.Slip.CLUSTER_NOT_CUT_AT_NODE); }
}
