package dev.numaspread.conformance.explain;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.ArchSchedNodeDistance;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.numa.NumaNearestNode;
import dev.numaspread.model.numa.NumaNth;
import dev.numaspread.model.topology.NodeMask;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Why each queue, IRQ or group of a plan got its CPUs (README "Plan", {@code plan --explain}): the
 * ring or NUMA level and its distance, the wrap, the sibling or cluster rule, each with the rule
 * ids of {@code spec/} that say so. An explanation reads the plan and the machine; it never
 * recomputes the plan, so it explains whatever the routine gave.
 */
public final class Explain {

    private Explain() {}

    /**
     * Why slot {@code i} holds {@code slots.get(i)}.
     *
     * @param text  the reason in words, in kernel notation
     * @param rules the spec rule ids behind it, in the order they apply
     */
    public record Reason(String text, List<String> rules) {
        public Reason {
            rules = List.copyOf(rules);
        }
    }

    /** One reason per slot of {@code slots}, as routine {@code routine} of {@code kernel} placed them on {@code m}. */
    public static List<Reason> reasons(String routine, KernelRelease kernel, Topology m, int node, List<CpuSet> slots) {
        return switch (routine) {
            case "local-spread" -> localSpread(kernel, m, node, slots);
            case "mlx5-comp-irqs" -> kernel.atLeast(6, 3) && kernel.before(6, 12) ? hopWalk(kernel, m, node, slots)
                    : prefixed(localSpread(kernel, m, node, slots), "MLX-4");
            case "hop-masks" -> hops(kernel, m, node, slots);
            case "group-cpus" -> groups(kernel, m, slots, "");
            case "blk-mq-map" -> queues(kernel, m, slots);
            case "irq-setup", "mana-setup-irqs" -> siblings(kernel, m, node, slots, routine.equals("mana-setup-irqs"));
            default -> {
                List<Reason> out = new ArrayList<>();
                for (CpuSet ignored : slots) out.add(new Reason("no explanation for " + routine + " yet", List.of()));
                yield out;
            }
        };
    }

    /** The lines {@code plan --explain} prints: slot, CPUs, reason, rule ids. */
    public static String text(String word, List<CpuSet> slots, List<Reason> reasons) {
        StringBuilder sb = new StringBuilder(String.format("%-7s %-14s %-70s %s%n", word, "cpus", "why", "rules"));
        for (int i = 0; i < slots.size(); i++)
            sb.append(String.format("%-7d %-14s %-70s %s%n", i, slots.get(i).toText(),
                    reasons.get(i).text(), String.join(" ", reasons.get(i).rules())));
        return sb.toString();
    }

    // ------------------------------------------------------------ local spread

    static List<Reason> localSpread(KernelRelease k, Topology m, int node, List<CpuSet> slots) {
        List<Reason> out = new ArrayList<>();
        boolean housekeeping = dev.numaspread.model.spread.LocalSpread.isHousekeeping(k);
        CpuSet pool = housekeeping ? m.possible() : m.online();
        int n = pool.size();
        List<CpuSet> rings = k.atLeast(6, 3) && node != Numa.NUMA_NO_NODE && !m.isCpuless(node) ? NumaHops.hopMasks(k, m, node) : List.of();
        for (int i = 0; i < slots.size(); i++) {
            CpuSet s = slots.get(i);
            if (s.isEmpty()) {
                out.add(new Reason("no CPU", List.of()));
                continue;
            }
            int c = s.first();
            String wrap = i >= n ? "wraps: " + i + " mod " + n + (housekeeping ? " possible" : " online") + " CPUs = " + (i % n) + "; " : "";
            List<String> rules = new ArrayList<>();
            if (i >= n) rules.add(housekeeping ? "LS-11" : "LS-2");
            String why;
            if (housekeeping) {
                why = "5.9 spreads over the possible CPUs";
                rules.add("LS-11");
            } else if (node == Numa.NUMA_NO_NODE) {
                why = "NUMA_NO_NODE: the " + ordinal(i % n) + " online CPU";
                rules.add("LS-8");
            } else if (m.isCpuless(node)) {
                int from = NumaNearestNode.nearestNodeWithCpus(m, node);
                why = NumaNth.substitutesCpulessNode(k) ? "node " + node + " has no CPUs: from node " + from + ", the nearest with CPUs, then by distance"
                        : k.atLeast(6, 3) ? "node " + node + " has no CPUs (this release oopses)" : "node " + node + " has no CPUs: as NUMA_NO_NODE";
                rules.add("LS-9");
            } else if (k.before(6, 3)) {
                boolean local = m.onlineCpusOf(node).contains(c);
                why = local ? "local node " + node + ", ascending CPU id" : "another node, ascending CPU id; distance ignored";
                if (local) rules.add("LS-3");
                rules.add("LS-7");
            } else {
                int ring = ringOf(rings, c);
                // The scheduler's distance (LVL-6): node_distance(), but averaged on SNC machines from 6.19.
                ArchSchedNodeDistance sched = ArchSchedNodeDistance.of(k, m);
                int dist = sched.distance(node, m.nodeOf(c));
                why = ring == 0 ? "ring 0: node " + node + " itself (distance " + dist + ")"
                        : "ring " + ring + ": " + distanceText(sched, m, node, m.nodeOf(c)) + " from node " + node + " (node " + m.nodeOf(c) + ")";
                if (sched.rewritesDistances()) rules.add("LVL-8");
                why += ", ascending CPU id across the ring";
                if (ring == 0) rules.add("LS-3");
                rules.add("LS-4");
                rules.add("LS-6");
            }
            out.add(new Reason(wrap + why, rules.stream().distinct().toList()));
        }
        return out;
    }

    /** mlx5 6.3-6.11: the i-th CPU of the hop walk, CPU 0 past its end (MLX-5). */
    static List<Reason> hopWalk(KernelRelease k, Topology m, int node, List<CpuSet> slots) {
        List<Reason> base = localSpread(k, m, node, slots);
        List<Reason> out = new ArrayList<>();
        int n = m.numOnlineCpus();
        for (int i = 0; i < slots.size(); i++) {
            if (i >= n) out.add(new Reason("past the hop walk's " + n + " CPUs: CPU 0, no wraparound", List.of("MLX-5")));
            else {
                List<String> rules = new ArrayList<>(List.of("MLX-5", "MLX-6"));
                rules.addAll(base.get(i).rules());
                out.add(new Reason("hop walk: " + base.get(i).text(), rules.stream().distinct().toList()));
            }
        }
        return out;
    }

    private static List<Reason> prefixed(List<Reason> reasons, String rule) {
        List<Reason> out = new ArrayList<>();
        for (Reason r : reasons) {
            List<String> rules = new ArrayList<>(List.of(rule));
            rules.addAll(r.rules());
            out.add(new Reason(r.text(), rules));
        }
        return out;
    }

    static List<Reason> hops(KernelRelease k, Topology m, int node, List<CpuSet> masks) {
        List<Reason> out = new ArrayList<>();
        CpuSet before = CpuSet.EMPTY;
        // The hops follow the scheduler's distance (LVL-6): shown as such where it is not node_distance().
        ArchSchedNodeDistance sched = ArchSchedNodeDistance.of(k, m);
        for (int h = 0; h < masks.size(); h++) {
            CpuSet added = masks.get(h).andNot(before);
            NodeMask nodes = m.nodesOf(added);
            String dist = node == Numa.NUMA_NO_NODE || nodes.isEmpty() ? "" : ", " + distanceText(sched, m, node, nodes.first());
            List<String> rules = new ArrayList<>(h == 0 || h == masks.size() - 1 ? List.of("HOP-1", "HOP-2", "HOP-4") : List.of("HOP-1", "HOP-4"));
            if (!dist.isEmpty() && sched.rewritesDistances()) rules.add("LVL-8");
            out.add(new Reason("hop " + h + ": adds nodes " + nodes.toText() + dist
                    + (h == masks.size() - 1 ? "; the last hop is every online CPU" : ""), rules));
            before = masks.get(h);
        }
        return out;
    }

    // ------------------------------------------------------------ closest CPU

    /**
     * Why call {@code i} of {@code sched_numa_find_closest(cpus, cpu)}, made in turn on
     * {@code callingCpu} from the state {@code prev}, answered {@code answers.get(i)}: the nearest
     * level of {@code cpu}'s node that holds a CPU of {@code cpus} (HOP-5), then the lowest id of it
     * up to 6.15 (HOP-9) or, from 6.16, the first above the calling CPU's
     * {@code distribute_cpu_mask_prev}, wrapping (HOP-10). The state each call starts from is the
     * answer before it (unchanged by a "none"), as the kernel keeps it; an answer outside the
     * nearest level is named as such, not explained away.
     */
    public static List<Reason> numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu, int callingCpu, int prev,
                                           List<CpuSet> answers) {
        List<Reason> out = new ArrayList<>();
        NumaLevels levels = NumaLevels.of(k, m);
        int node = m.nodeOf(cpu);
        List<CpuSet> masks = levels.masksOf(node);
        List<String> distance = levels.archSchedNodeDistance().rewritesDistances() ? List.of("LVL-8") : List.of();
        int level = 0;
        while (level < masks.size() && !masks.get(level).intersects(cpus)) level++;
        int state = prev;
        for (CpuSet answer : answers) {
            List<String> rules = new ArrayList<>(List.of("HOP-5"));
            rules.addAll(distance);
            if (level == masks.size()) {
                String why = levels.isEmpty() ? "none: the kernel built no NUMA levels (a distance outside 10-255)"
                        : masks.isEmpty() ? "none: node " + node + " (of cpu " + cpu + ") has no level masks (it has no CPUs)"
                        : "none: no level of node " + node + " (of cpu " + cpu + ") holds an online CPU of " + cpus.toText();
                out.add(new Reason(answer.isEmpty() ? why : "cpu " + answer.first() + ", where the levels say " + why, rules));
                continue;
            }
            CpuSet hit = masks.get(level).and(cpus);
            String where = "level " + level + ": " + (level == 0 ? "node " + node + " itself" : "within distance "
                    + levels.distances()[level] + " of node " + node) + ", the nearest holding " + hit.toText() + " of the set";
            if (answer.isEmpty() || !hit.contains(answer.first())) {
                out.add(new Reason((answer.isEmpty() ? "none" : "cpu " + answer.first()) + ", outside the nearest " + where, rules));
                continue;
            }
            int c = answer.first();
            if (k.before(6, 16)) {
                rules.add("HOP-9");
                out.add(new Reason(where + "; its lowest id", rules));
                continue;
            }
            rules.add("HOP-10");
            boolean wraps = hit.next(state + 1) < 0;
            out.add(new Reason(where + "; " + (wraps ? "none above " + state + ", so its lowest" : "the first above " + state)
                    + " (cpu " + callingCpu + "'s distribute_cpu_mask_prev)", rules));
            state = c;
        }
        return out;
    }

    // ------------------------------------------------------------ groups and queues

    static List<Reason> groups(KernelRelease k, Topology m, List<CpuSet> groups, String prefix) {
        List<Reason> out = new ArrayList<>();
        for (CpuSet g : groups) {
            if (g.isEmpty()) {
                out.add(new Reason(prefix + "empty: more groups than CPUs, empty groups come last", List.of("GRP-6")));
                continue;
            }
            List<String> rules = new ArrayList<>();
            NodeMask nodes = m.nodesOf(g);
            StringBuilder why = new StringBuilder(prefix);
            boolean present = g.isSubsetOf(m.present()), absent = !g.intersects(m.present());
            if (nodes.size() > 1) {
                why.append("nodes ").append(nodes.toList()).append(" dealt whole: fewer groups than nodes");
                rules.add("GRP-8");
            } else {
                int n = nodes.first();
                int share = (int) groups.stream().filter(x -> !x.isEmpty() && x.stream().allMatch(c -> m.nodeOf(c) == n)
                        && (present ? x.isSubsetOf(m.present()) : !x.intersects(m.present()))).count();
                why.append("node ").append(n).append(": one of its ").append(share).append(share == 1 ? " group" : " groups")
                        .append(" of ").append(present ? m.presentCpusOf(n).size() + " present CPUs" : "its CPUs");
                rules.add("GRP-2");
                rules.add("GRP-3");
                if (k.atLeast(7, 0)) clusterStep(m, g, n, present ? m.present() : m.possible().andNot(m.present()), share, why, rules);
                else rules.add("GRP-4");
            }
            if (!present) {
                why.append(absent ? "; CPUs not present, grouped after the present ones" : "; present and not present together");
                rules.add("GRP-7");
            }
            boolean wholeCores = g.stream().allMatch(c -> m.onlineSiblingsOf(c).isEmpty() || m.onlineSiblingsOf(c).isSubsetOf(g));
            boolean hasSmt = g.stream().anyMatch(c -> m.siblingsOf(c).size() > 1);
            if (hasSmt) {
                why.append(wholeCores ? "; SMT siblings kept together" : "; a core split: the quota left no room for the whole core");
                rules.add("GRP-5");
            }
            out.add(new Reason(why.toString(), rules));
        }
        return out;
    }

    /**
     * From 7.0, whether node {@code n} was dealt cluster by cluster in the stage of {@code stage}
     * (its {@code share} groups), and why: a CPU of the stage without a cluster mask (offline or
     * not present), or more clusters than groups, sends the node back to node-wide dealing (GRP-13);
     * else group {@code g} is one of its cluster's groups (GRP-11, GRP-12), clusters taken in the
     * heapsort's order (GRP-15).
     */
    private static void clusterStep(Topology m, CpuSet g, int n, CpuSet stage, int share, StringBuilder why, List<String> rules) {
        CpuSet cpus = m.cpusOf(n).and(stage);
        CpuSet maskless = cpus.andNot(m.online());
        List<CpuSet> clusters = new ArrayList<>();
        for (int c : cpus.toArray()) {
            CpuSet cl = clusterOf(m, c).and(cpus);
            if (!clusters.contains(cl)) clusters.add(cl);
        }
        if (!maskless.isEmpty()) {
            why.append(maskless.size() == 1 ? "; node-wide: CPU " : "; node-wide: CPUs ").append(maskless.toList())
                    .append(maskless.size() == 1 ? " has" : " have").append(" no cluster mask (")
                    .append(maskless.isSubsetOf(m.present()) ? "offline" : "not present").append(")");
            rules.add("GRP-13");
        } else if (clusters.size() > share) {
            why.append("; node-wide: ").append(clusters.size()).append(" clusters for ").append(share)
                    .append(share == 1 ? " group" : " groups");
            rules.add("GRP-13");
        } else {
            CpuSet cluster = clusterOf(m, g.first()).and(cpus);
            if (!g.isSubsetOf(cluster)) {
                why.append("; crosses clusters, which the cluster step never does");
                rules.add("GRP-11");
                return;
            }
            why.append("; cluster ").append(cluster.toList()).append(g.equals(cluster) ? ", whole" : ", split")
                    .append(" (clusters in heapsort order)");
            rules.add("GRP-11");
            rules.add("GRP-12");
            rules.add("GRP-15");
        }
    }

    /** A blk-mq queue's CPUs: from 6.3 group q (q mod nummasks) of group_cpus_evenly; before, the legacy map. */
    static List<Reason> queues(KernelRelease k, Topology m, List<CpuSet> queues) {
        if (k.before(6, 3)) {
            List<Reason> out = new ArrayList<>();
            for (CpuSet q : queues) {
                NodeMask nodes = m.nodesOf(q);
                out.add(new Reason("legacy map: present CPUs take queues in turn, SMT siblings share their first sibling's queue"
                        + (nodes.size() > 1 ? "; nodes " + nodes.toList() + " mixed (NUMA ignored)" : ""), List.of("MQ-2", "MQ-4")));
            }
            return out;
        }
        List<Reason> g = groups(k, m, queues, "the queue's group: ");
        List<Reason> out = new ArrayList<>();
        for (Reason r : g) {
            List<String> rules = new ArrayList<>(List.of("MQ-3"));
            rules.addAll(r.rules());
            out.add(new Reason(r.text(), rules));
        }
        return out;
    }

    // ------------------------------------------------------------ sibling spread

    static List<Reason> siblings(KernelRelease k, Topology m, int node, List<CpuSet> irqs, boolean hwcFirst) {
        List<Reason> out = new ArrayList<>();
        if (k.before(6, 9)) {
            List<Reason> ls = localSpread(k, m, node, irqs);
            for (Reason r : ls) {
                List<String> rules = new ArrayList<>(List.of("SIB-11"));
                rules.addAll(r.rules());
                out.add(new Reason("one CPU per IRQ from cpumask_local_spread: " + r.text(), rules));
            }
            return out;
        }
        List<CpuSet> rings = node == Numa.NUMA_NO_NODE || m.isCpuless(node) ? List.of(m.online()) : NumaHops.hopMasks(k, m, node);
        java.util.Map<CpuSet, Integer> uses = new java.util.HashMap<>();
        ArchSchedNodeDistance sched = ArchSchedNodeDistance.of(k, m);
        for (int i = 0; i < irqs.size(); i++) {
            CpuSet s = irqs.get(i);
            if (s.isEmpty()) {
                out.add(new Reason("untouched: irq_setup stopped before this IRQ", List.of("SIB-8")));
                continue;
            }
            int ring = ringOf(rings, s.first());
            String hop = node == Numa.NUMA_NO_NODE ? "" : "hop " + ring + " (" + distanceText(sched, m, node, m.nodeOf(s.first())) + ")";
            if (s.size() == 1 && m.onlineSiblingsOf(s.first()).size() > 1 && hwcFirst && i == 0) {
                out.add(new Reason("the HWC: one CPU, sharing its core with queue 1 (more vectors than online CPUs)", List.of("SIB-9")));
                continue;
            }
            int pass = uses.merge(s, 1, Integer::sum);
            List<String> rules = new ArrayList<>(List.of("SIB-1", "SIB-2", "SIB-3"));
            if (!hop.isEmpty() && sched.rewritesDistances()) rules.add("LVL-8");
            out.add(new Reason((hwcFirst && i == 0 ? "the HWC: " : "") + "core " + s.toList() + " (its online siblings), " + hop
                    + ", pass " + pass + " over the hop's cores", rules));
        }
        return out;
    }

    // ------------------------------------------------------------ helpers

    /**
     * {@code distance D} from {@code from} to {@code to} as the release's NUMA levels measure it
     * (LVL-6); where that is not {@code node_distance()}, {@code scheduler's distance D
     * (node_distance R)}, so a reader sees which one placed the CPU.
     */
    static String distanceText(ArchSchedNodeDistance sched, Topology m, int from, int to) {
        int d = sched.distance(from, to), raw = m.distance(from, to);
        return d == raw ? "distance " + d : "scheduler's distance " + d + " (node_distance " + raw + ")";
    }

    private static int ringOf(List<CpuSet> cumulative, int cpu) {
        for (int r = 0; r < cumulative.size(); r++) if (cumulative.get(r).contains(cpu)) return r;
        return cumulative.size();
    }

    private static CpuSet clusterOf(Topology m, int cpu) {
        return m.clusters().stream().filter(c -> c.contains(cpu)).findFirst().orElse(CpuSet.of(cpu));
    }

    private static String ordinal(int i) {
        int n = i + 1;
        String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
        return n + suffix;
    }
}
