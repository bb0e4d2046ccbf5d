package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The checks of spec/group-cpus.md. GRP-1..GRP-9 are contract checks (invariants of any correct
 * {@code group_cpus_evenly}); GRP-10 compares with the reference model of the claimed release.
 * Each stage is judged on its own CPUs: present CPUs (stage 1), then the possible CPUs that are
 * not present (stage 2).
 *
 * <p>Over 450 lines on purpose (issue 26): one family's checks, a method per rule, as every {@link
 * CheckFamily}.
 */
public final class GroupCpusChecks implements CheckFamily {

    /**
     * The machines of the grouping checks (group-cpus, blk-mq): realistic machines of at most 4
     * nodes and 32 CPUs, SMT, split numbering, sparse node ids, CPU-less nodes, not-present and
     * offline CPUs included. Grouping ignores distances, so asymmetric tables cost nothing; the
     * bound is for speed (GRP-10 and MQ-10 recompute the model on every try).
     */
    static final Gen<Topology> MACHINES = Machines.realistic(Machines.Options.DEFAULT.withMaxNodes(4).withMaxCpus(32));

    /** A machine and a count from 1 to its possible CPUs + 2 (GRP-9 and GRP-10 ask for 0 groups too). */
    record Case(Topology machine, int count) {}

    static Gen<Case> cases() {
        return MACHINES.flatMap(m -> MachineDraws.counts(m, 1, m.possible().size() + 2).map(n -> new Case(m, n)));
    }

    /** The machine in .topo-like words for a call: nodes, siblings, possible/present/online. */
    static String describe(Topology m) {
        StringBuilder sb = new StringBuilder();
        sb.append("possible ").append(m.possible().toList()).append(", present ").append(m.present().toList())
                .append(", online ").append(m.online().toList());
        for (var n : m.nodes()) sb.append("; node ").append(n.id()).append(" cpus ").append(n.cpus().toList());
        sb.append("; siblings");
        for (CpuSet s : m.smtSiblings()) sb.append(' ').append(s.toList());
        if (!m.clustersAssumed()) {
            sb.append("; clusters");
            for (CpuSet c : m.clusters()) sb.append(' ').append(c.toList());
        }
        return sb.toString();
    }

    // Alike on purpose (duplicates, issue 26) with PagePoolChecks: a family's list of checks, a line per rule.
    @Override
    public List<Check> checks() {
        return List.of(
                property("GRP-1", "GRP_1_groupsPartitionThePossibleCpus", GroupCpusChecks::partition),
                property("GRP-2", "GRP_2_aGroupHoldsOneNodesCpusPerStage", GroupCpusChecks::oneNodePerGroup),
                property("GRP-3", "GRP_3_everyNodeGetsOneToNcpusGroups", GroupCpusChecks::groupsPerNode),
                property("GRP-4", "GRP_4_sizesInsideANodeDifferByAtMostOne", GroupCpusChecks::evenSizes),
                property("GRP-5", "GRP_5_siblingsStayTogetherWhenTheQuotaAllows", GroupCpusChecks::siblingsTogether),
                property("GRP-6", "GRP_6_stagesFillMinGroupsAndEmptyGroupsComeLast", GroupCpusChecks::filledGroups),
                property("GRP-7", "GRP_7_nonPresentCpusContinueAfterThePresentOnes", GroupCpusChecks::stageTwoStart),
                property("GRP-8", "GRP_8_fewerGroupsThanNodesDealWholeNodes", GroupCpusChecks::wholeNodes),
                Check.of("GRP-9", Routine.GROUP_CPUS, "GRP_9_zeroGroupsGiveNull", GroupCpusChecks::zeroGroups),
                Check.of("GRP-10", Routine.GROUP_CPUS, "GRP_10_groupsAreTheKernels", GroupCpusChecks::exact),
                property("GRP-11", "GRP_11_aGroupStaysInsideOneCluster", GroupCpusChecks::insideClusters),
                property("GRP-12", "GRP_12_aClustersGroupsDifferByAtMostOne", GroupCpusChecks::evenClusters),
                property("GRP-13", "GRP_13_moreClustersThanGroupsOrAnEmptyMaskFallsBack", GroupCpusChecks::fallBack),
                Check.of("GRP-14", Routine.GROUP_CPUS, "GRP_14_nummasksCountsTheGroupsThatHoldCpus", GroupCpusChecks::nummasks),
                Check.of("GRP-15", Routine.GROUP_CPUS, "GRP_15_clustersInHeapsortOrder", GroupCpusChecks::clusterOrder));
    }

    interface CaseBody {
        void check(KernelRelease kernel, Topology m, int numgrps, List<CpuSet> groups);
    }

    private static Check property(String rule, String name, CaseBody body) {
        return Check.of(rule, Routine.GROUP_CPUS, name, ctx -> ctx.forAll(judgedCases(ctx.kernel(), body), c -> {
            List<CpuSet> groups = call(ctx, c.machine(), c.count());
            try {
                body.check(ctx.kernel(), c.machine(), c.count(), groups);
            } catch (Violation v) {
                throw v.on(c.machine());
            }
        }));
    }

    /**
     * The cases of a property: half of them drawn until one on which the property judges the
     * reference model's grouping (GRP-5 speaks of one case in twelve, GRP-8 of one in eight), so
     * most tries judge; the other half as drawn, so a case only a wrong answer makes the property
     * judge stays in reach.
     */
    static Gen<Case> judgedCases(KernelRelease k, CaseBody body) {
        Gen<Case> judged = cases().filter(c -> judgesTheModel(k, body, c));
        Gen<Case> any = cases();
        // Within a small scope every case comes anyway: the judged half would only repeat some.
        return c -> c.smallScope().isEmpty() && c.chance(50) ? judged.generate(c) : any.generate(c);
    }

    private static boolean judgesTheModel(KernelRelease k, CaseBody body, Case c) {
        try {
            Optional<List<CpuSet>> groups = GroupCpusEvenly.groupCpusEvenly(k, c.machine(), c.count());
            if (groups.isEmpty()) return true;
            body.check(k, c.machine(), c.count(), groups.get());
            return true;
        } catch (NotApplicable outside) {
            return false;
        } catch (RuntimeException judged) {
            return true;   // a violation or a crash: the check run itself reports it
        }
    }

    private static List<CpuSet> call(CheckContext ctx, Topology m, int numgrps) {
        Optional<List<CpuSet>> r = ctx.implementation().groupCpusEvenly(ctx.kernel(), m, numgrps);
        if (r.isEmpty())
            throw Violation.of("GRP-1", callText(m, numgrps), numgrps + " groups", "NULL")
                    .hint("only numgrps == 0 gives NULL").on(m);
        return r.get();
    }

    static String callText(Topology m, int numgrps) {
        return "groupCpusEvenly(numgrps=" + numgrps + ") on " + describe(m);
    }

    /** The two stages' CPU sets: present, then possible but not present. */
    static List<CpuSet> stages(Topology m) {
        return List.of(m.present(), m.possible().andNot(m.present()));
    }

    static List<Integer> nodesWithCpusIn(Topology m, CpuSet cpus) {
        List<Integer> out = new ArrayList<>();
        for (int id : m.nodeIds()) if (m.cpusOf(id).intersects(cpus)) out.add(id);
        return out;
    }

    static void partition(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        if (groups.size() != numgrps)
            throw Violation.of("GRP-1", callText(m, numgrps), numgrps + " groups", groups.size() + " groups: " + CpuSet.toText(groups));
        CpuSet seen = CpuSet.EMPTY;
        for (CpuSet g : groups) {
            if (g.intersects(seen))
                throw Violation.of("GRP-1", callText(m, numgrps), "each CPU in one group",
                        "cpus " + g.and(seen).toList() + " in two groups: " + CpuSet.toText(groups));
            seen = seen.or(g);
        }
        if (!seen.equals(m.possible()))
            throw Violation.of("GRP-1", callText(m, numgrps), "the groups cover the possible CPUs " + m.possible().toList(),
                    "they cover " + seen.toList() + ": " + CpuSet.toText(groups));
    }

    static void oneNodePerGroup(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        boolean judged = false;
        for (CpuSet stage : stages(m)) {
            if (numgrps <= nodesWithCpusIn(m, stage).size()) continue;
            judged = true;
            for (int g = 0; g < groups.size(); g++) {
                List<Integer> nodes = nodesWithCpusIn(m, groups.get(g).and(stage));
                if (nodes.size() > 1)
                    throw Violation.of("GRP-2", callText(m, numgrps), "group " + g + " holds the stage CPUs of one node",
                            "group " + g + " = " + groups.get(g).toList() + " mixes nodes " + nodes)
                            .hint("are groups filled across node boundaries, or a node left without a group?");
            }
        }
        if (!judged) throw new NotApplicable("numgrps " + numgrps + " is at most the nodes with CPUs in each stage: GRP-8's case");
    }

    static void groupsPerNode(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        boolean judged = false;
        for (CpuSet stage : stages(m)) {
            List<Integer> nodes = nodesWithCpusIn(m, stage);
            if (nodes.isEmpty() || numgrps <= nodes.size()) continue;
            judged = true;
            int total = 0;
            for (int node : nodes) {
                CpuSet cpus = m.cpusOf(node).and(stage);
                int count = 0;
                for (CpuSet g : groups) if (g.intersects(cpus)) count++;
                if (count < 1 || count > cpus.size())
                    throw Violation.of("GRP-3", callText(m, numgrps), "node " + node + " (stage CPUs " + cpus.toList()
                            + ") in 1.." + cpus.size() + " groups", count + " groups: " + CpuSet.toText(groups));
                total += count;
            }
            int want = Math.min(numgrps, stage.size());
            if (total != want)
                throw Violation.of("GRP-3", callText(m, numgrps), "the nodes of stage " + stage.toList() + " share "
                        + want + " groups", total + " groups: " + CpuSet.toText(groups));
        }
        if (!judged) throw new NotApplicable("numgrps " + numgrps + " is at most the nodes with CPUs in each stage: GRP-8's case");
    }

    /**
     * A node's stage CPUs and the parts of the groups that hold them, in a stage where GRP-3 holds:
     * every node of the stage is in 1..n groups and their counts add up to min(numgrps, stage CPUs).
     */
    record NodeShare(int node, CpuSet cpus, List<CpuSet> parts) {
        /** {@code floor(n/g)}: the smaller size GRP-4 allows. */
        int low() {
            return cpus.size() / parts.size();
        }

        /** The larger size GRP-4 allows: {@code ceil(n/g)}. */
        int high() {
            return low() + (cpus.size() % parts.size() == 0 ? 0 : 1);
        }

        boolean evenlySized() {
            return parts.stream().allMatch(p -> p.size() == low() || p.size() == high());
        }
    }

    /**
     * The node shares of the stages where {@code numgrps} exceeds the nodes with CPUs and GRP-3
     * holds. GRP-4 and GRP-5 judge only these: elsewhere a node's group count would come from the
     * answer alone (one group holding every CPU would be "one group, evenly sized"), and the count
     * is GRP-3's matter, which judges it against the machine.
     */
    static List<NodeShare> shares(Topology m, int numgrps, List<CpuSet> groups) {
        List<NodeShare> out = new ArrayList<>();
        for (CpuSet stage : stages(m)) {
            List<Integer> nodes = nodesWithCpusIn(m, stage);
            if (nodes.isEmpty() || numgrps <= nodes.size()) continue;
            List<NodeShare> here = new ArrayList<>();
            int total = 0;
            boolean counts = true;
            for (int node : nodes) {
                CpuSet cpus = m.cpusOf(node).and(stage);
                List<CpuSet> parts = new ArrayList<>();
                for (CpuSet g : groups) if (g.intersects(cpus)) parts.add(g.and(cpus));
                counts &= !parts.isEmpty() && parts.size() <= cpus.size();
                total += parts.size();
                here.add(new NodeShare(node, cpus, parts));
            }
            if (counts && total == Math.min(numgrps, stage.size())) out.addAll(here);
        }
        return out;
    }

    static void evenSizes(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        if (clusterAware(k))
            throw new NotApplicable("from 7.0 GRP-12 and GRP-13 judge the sizes, per cluster and per node that falls back");
        List<NodeShare> shares = shares(m, numgrps, groups);
        if (shares.isEmpty())
            throw new NotApplicable("no stage where numgrps exceeds its nodes and GRP-3 holds: a node's group count is GRP-3's matter");
        for (NodeShare n : shares)
            if (!n.evenlySized()) {
                List<Integer> sizes = n.parts().stream().map(CpuSet::size).toList();
                throw Violation.of("GRP-4", callText(m, numgrps), "node " + n.node() + ": " + n.cpus().size() + " CPUs in "
                        + sizes.size() + " groups of " + n.low() + (n.high() > n.low() ? " or " + n.high() : "") + " CPUs",
                        "sizes " + sizes);
            }
    }

    static void siblingsTogether(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        boolean judged = false;
        // Nodes whose groups GRP-3 and GRP-4 accept: there the sizes are floor(n/g) and ceil(n/g), so
        // whether every group holds a multiple of w follows from the machine and the count, not the answer.
        for (NodeShare n : shares(m, numgrps, groups)) {
            if (!n.evenlySized()) continue;
            TreeSet<CpuSet> cores = new TreeSet<>();
            for (int c : n.cpus().toArray()) cores.add(m.siblingsOf(c));
            int w = cores.first().size();
            boolean applies = w > 1 && n.low() % w == 0 && n.high() % w == 0;
            for (CpuSet core : cores) applies &= core.size() == w && core.isSubsetOf(n.cpus()) && core.isSubsetOf(m.online());
            if (!applies) continue;
            judged = true;
            for (CpuSet core : cores)
                for (CpuSet g : groups)
                    if (g.intersects(core) && !core.isSubsetOf(g))
                        throw Violation.of("GRP-5", callText(m, numgrps), "core " + core.toList() + " in one group (every group of node "
                                + n.node() + " holds a multiple of " + w + " of its CPUs)", CpuSet.toText(groups))
                                .hint("does a group take its CPU's online siblings before the next CPU?");
        }
        if (!judged)
            throw new NotApplicable("no node whose groups GRP-3 and GRP-4 accept has whole online cores of one width w > 1 and quotas"
                    + " that are multiples of w");
    }

    static void filledGroups(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        for (CpuSet stage : stages(m)) {
            int filled = 0;
            for (CpuSet g : groups) if (g.intersects(stage)) filled++;
            int want = Math.min(numgrps, stage.size());
            if (filled != want)
                throw Violation.of("GRP-6", callText(m, numgrps), "the CPUs " + stage.toList() + " in " + want + " groups",
                        filled + " groups: " + CpuSet.toText(groups));
        }
        int nonEmpty = Math.min(numgrps, m.possible().size());
        for (int g = 0; g < groups.size(); g++)
            if (groups.get(g).isEmpty() == (g < nonEmpty))
                throw Violation.of("GRP-6", callText(m, numgrps), "groups 0.." + (nonEmpty - 1) + " hold CPUs, the rest are empty",
                        CpuSet.toText(groups));
    }

    static void stageTwoStart(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        CpuSet others = m.possible().andNot(m.present());
        if (others.isEmpty()) throw new NotApplicable("every possible CPU is present: GRP-7 is about the others");
        int p = Math.min(numgrps, m.present().size());
        int start = p % numgrps;
        TreeSet<Integer> want = new TreeSet<>(), got = new TreeSet<>();
        for (int j = 0; j < Math.min(numgrps, others.size()); j++) want.add((start + j) % numgrps);
        for (int g = 0; g < groups.size(); g++) if (groups.get(g).intersects(others)) got.add(g);
        if (!want.equals(got))
            throw Violation.of("GRP-7", callText(m, numgrps), "the non-present CPUs " + others.toList() + " in groups " + want,
                    "groups " + got + ": " + CpuSet.toText(groups))
                    .hint("does stage 2 start at group 0 instead of after the " + p + " present groups?");
    }

    static void wholeNodes(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        if (stages(m).stream().allMatch(stage -> numgrps > nodesWithCpusIn(m, stage).size()))
            throw new NotApplicable("numgrps " + numgrps + " exceeds the nodes with CPUs in each stage: GRP-2's to GRP-5's case");
        for (CpuSet stage : stages(m)) {
            List<Integer> nodes = nodesWithCpusIn(m, stage);
            if (numgrps > nodes.size()) continue;
            for (int node : nodes) {
                CpuSet cpus = m.cpusOf(node).and(stage);
                int count = 0;
                for (CpuSet g : groups) if (g.intersects(cpus)) count++;
                if (count != 1)
                    throw Violation.of("GRP-8", callText(m, numgrps), "node " + node + " (" + cpus.toList() + ") whole in one group",
                            "in " + count + " groups: " + CpuSet.toText(groups));
            }
        }
    }

    /**
     * The clusters of a node's stage CPUs {@code s} as 7.0 counts them, or empty when a CPU of
     * {@code s} has an empty cluster mask (TOPO-13: it is not online): each part is {@code s} ∩ the
     * live cluster mask of its lowest CPU.
     */
    static List<CpuSet> clustersOf(Topology m, CpuSet s) {
        List<CpuSet> out = new ArrayList<>();
        CpuSet left = s;
        while (!left.isEmpty()) {
            CpuSet mask = m.topologyClusterCpumask(left.first());
            if (mask.isEmpty()) return List.of();
            out.add(mask.and(s));
            left = left.andNot(mask).without(left.first());
        }
        return out;
    }

    /** True from 7.0, where a node's CPUs are dealt cluster by cluster (GRP-11..GRP-13, GRP-15). */
    static boolean clusterAware(KernelRelease k) {
        return k.atLeast(7, 0);
    }

    /** A node's share of a stage (GRP-3 confirmed) and the clusters of its stage CPUs (empty: a CPU without cluster mask). */
    record ClusterNode(int node, CpuSet cpus, List<CpuSet> groups, List<CpuSet> clusters) {
        boolean takesTheClusterStep() {
            return !clusters.isEmpty() && clusters.size() <= groups.size();
        }
    }

    /**
     * The node shares GRP-3 accepts (see {@link #shares}), with their clusters: a node's group count
     * comes from the machine and the count, not from the answer alone.
     */
    static List<ClusterNode> clusterNodes(Topology m, int numgrps, List<CpuSet> groups) {
        List<ClusterNode> out = new ArrayList<>();
        for (NodeShare n : shares(m, numgrps, groups)) out.add(new ClusterNode(n.node(), n.cpus(), n.parts(), clustersOf(m, n.cpus())));
        return out;
    }

    static List<ClusterNode> judged(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups, boolean clusterStep, String none) {
        if (!clusterAware(k)) throw new NotApplicable("before 7.0 a node is dealt node-wide (GRP-4)");
        List<ClusterNode> out = clusterNodes(m, numgrps, groups).stream().filter(n -> n.takesTheClusterStep() == clusterStep).toList();
        if (out.isEmpty()) throw new NotApplicable(none);
        return out;
    }

    static void insideClusters(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        for (ClusterNode n : judged(k, m, numgrps, groups, true, "no node takes the cluster step: GRP-13's case")) {
            for (CpuSet g : n.groups())
                if (n.clusters().stream().noneMatch(g::isSubsetOf))
                    throw Violation.of("GRP-11", callText(m, numgrps), "node " + n.node() + ": each group inside one of its "
                            + n.clusters().size() + " clusters " + CpuSet.toText(n.clusters()) + " (" + n.groups().size() + " groups)",
                            "a group holds " + g.toList() + ": " + CpuSet.toText(groups))
                            .hint("from 7.0, are the node's CPUs dealt cluster by cluster when it has no more clusters than groups?");
            for (CpuSet c : n.clusters()) {
                long count = n.groups().stream().filter(c::intersects).count();
                if (count < 1 || count > c.size())
                    throw Violation.of("GRP-11", callText(m, numgrps), "cluster " + c.toList() + " in 1.." + c.size() + " groups",
                            count + " groups: " + CpuSet.toText(groups));
            }
        }
    }

    static void evenClusters(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        for (ClusterNode n : judged(k, m, numgrps, groups, true, "no node takes the cluster step: GRP-13's case")) {
            for (CpuSet c : n.clusters()) {
                List<Integer> sizes = new ArrayList<>();
                for (CpuSet g : n.groups()) if (g.intersects(c)) sizes.add(g.and(c).size());
                int lo = c.size() / sizes.size(), hi = (c.size() + sizes.size() - 1) / sizes.size();
                for (int size : sizes)
                    if (size < lo || size > hi)
                        throw Violation.of("GRP-12", callText(m, numgrps), "cluster " + c.toList() + ": " + c.size() + " CPUs in "
                                + sizes.size() + " groups of " + lo + (hi > lo ? " or " + hi : "") + " CPUs", "sizes " + sizes);
            }
        }
    }

    static void fallBack(KernelRelease k, Topology m, int numgrps, List<CpuSet> groups) {
        for (ClusterNode n : judged(k, m, numgrps, groups, false, "every node takes the cluster step: GRP-11's case")) {
            int lo = n.cpus().size() / n.groups().size(), hi = (n.cpus().size() + n.groups().size() - 1) / n.groups().size();
            for (CpuSet g : n.groups())
                if (g.size() < lo || g.size() > hi)
                    throw Violation.of("GRP-13", callText(m, numgrps), "node " + n.node() + " (" + (n.clusters().isEmpty()
                                    ? "a CPU without cluster mask" : n.clusters().size() + " clusters for " + n.groups().size() + " groups")
                                    + "): " + n.cpus().size() + " CPUs in groups of " + lo + (hi > lo ? " or " + hi : ""),
                            "a group of " + g.size() + " (" + g.toList() + "): " + CpuSet.toText(groups))
                            .hint("does the node fall back to node-wide dealing when it has more clusters than groups or an offline CPU?");
        }
    }

    static void nummasks(CheckContext ctx) {
        if (ctx.kernel().before(6, 17)) return;
        ctx.forAll(cases(), c -> {
            Topology m = c.machine();
            java.util.OptionalInt got = ctx.implementation().groupCpusEvenlyNummasks(ctx.kernel(), m, c.count());
            int want = Math.min(c.count(), m.possible().size());
            if (got.isEmpty() || got.getAsInt() != want)
                throw Violation.of("GRP-14", callText(m, c.count()), "nummasks " + want + " (the groups that hold CPUs)",
                                got.isEmpty() ? "NULL" : "nummasks " + got.getAsInt()).on(m)
                        .hint("min(groups filled by both stages, numgrps)?");
        });
    }

    static void clusterOrder(CheckContext ctx) {
        if (!clusterAware(ctx.kernel())) return;
        ctx.forAll(cases(), c -> {
            Topology m = c.machine();
            String want = outcome(() -> GroupCpusEvenly.groupCpusEvenly(ctx.kernel(), m, c.count()));
            String got = outcome(() -> ctx.implementation().groupCpusEvenly(ctx.kernel(), m, c.count()));
            if (!want.equals(got))
                throw Violation.of("GRP-15", callText(m, c.count()), want, got).on(m)
                        .hint("are a node's clusters sorted by size with the kernel's heapsort and dealt in that order, not as counted?");
        });
    }

    static void zeroGroups(CheckContext ctx) {
        // GRP-9 holds from 6.16 and in the stable series that took the fix; GRP-10 covers the crash elsewhere.
        if (!GroupCpusEvenly.returnsNullForZeroGroups(ctx.kernel())) return;
        ctx.forAll(MACHINES, m -> {
            Optional<List<CpuSet>> r;
            try {
                r = ctx.implementation().groupCpusEvenly(ctx.kernel(), m, 0);
            } catch (KernelBug bug) {
                throw Violation.of("GRP-9", callText(m, 0), "NULL", "a kernel crash: " + bug.getMessage()).on(m)
                        .hint("the ZERO_SIZE_PTR bug fixed by df831e977394");
            }
            if (r.isPresent())
                throw Violation.of("GRP-9", callText(m, 0), "NULL", r.get().size() + " groups").on(m);
        });
    }

    static void exact(CheckContext ctx) {
        ctx.forAll(cases(), c -> {
            Topology m = c.machine();
            for (int numgrps : new int[] {c.count(), 0}) {
                String want = outcome(() -> GroupCpusEvenly.groupCpusEvenly(ctx.kernel(), m, numgrps));
                String got = outcome(() -> ctx.implementation().groupCpusEvenly(ctx.kernel(), m, numgrps));
                if (!want.equals(got))
                    throw Violation.of("GRP-10", callText(m, numgrps), want, got).on(m)
                            .hint("equal-size nodes: is the release's heapsort tie order used (lib/sort.c; 0e02ca29a563 changed it)?");
            }
        });
    }

    interface Call {
        Optional<List<CpuSet>> get();
    }

    /** The groups, "NULL", or "kernel crash": the three outcomes the kernel can have. */
    static String outcome(Call call) {
        try {
            return call.get().map(CpuSet::toText).orElse("NULL");
        } catch (KernelBug bug) {
            return "kernel crash";
        }
    }
}
