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
        return sb.toString();
    }

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
                Check.of("GRP-10", Routine.GROUP_CPUS, "GRP_10_groupsAreTheKernels", GroupCpusChecks::exact));
    }

    interface CaseBody {
        void check(KernelRelease kernel, Topology m, int numgrps, List<CpuSet> groups);
    }

    private static Check property(String rule, String name, CaseBody body) {
        return Check.of(rule, Routine.GROUP_CPUS, name, ctx -> ctx.forAll(cases(), c -> {
            List<CpuSet> groups = call(ctx, c.machine(), c.count());
            try {
                body.check(ctx.kernel(), c.machine(), c.count(), groups);
            } catch (Violation v) {
                throw v.on(c.machine());
            }
        }));
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

    static void zeroGroups(CheckContext ctx) {
        // GRP-9 holds from 6.16 and in 6.12.y (stable backport); GRP-10 covers the crash elsewhere.
        if (ctx.kernel().before(6, 16) && !ctx.kernel().equals(KernelRelease.of(6, 12))) return;
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
                            .hint("equal-size nodes: is the release's heapsort tie order used (research §6.4)?");
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
