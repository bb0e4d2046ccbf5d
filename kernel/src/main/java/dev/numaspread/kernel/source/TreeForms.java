package dev.numaspread.kernel.source;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which form each routine of the grouping family has in a tree, read from its source: the shim is
 * compiled to match (one or two arguments of {@code group_cpus_evenly}), and the certificate names
 * what was certified. The forms (spec/group-cpus.md, spec/blk-mq.md):
 *
 * <ul>
 *   <li>{@code group_cpus_evenly(numgrps)} (6.3-6.16, and the 6.1.y stable backport) or
 *       {@code group_cpus_evenly(numgrps, &nummasks)} (b6139a6abf67, 6.17); NULL for 0 groups
 *       (df831e977394, 6.16 and 6.12.y) or not; dealt cluster by cluster (89802ca36c96, 7.0) or not;</li>
 *   <li>{@code blk_mq_map_queues()} legacy (present CPUs first, siblings share: up to 6.2, and 6.1.y)
 *       or through {@code group_cpus_evenly} (6a6dcae8f486, 6.3), with {@code blk_mq_map_hw_queues}
 *       and {@code blk_mq_num_possible_queues}/{@code blk_mq_num_online_queues} where the tree has them;</li>
 *   <li>{@code irq_create_affinity_masks()} through {@code group_cpus_evenly} (6.3, and 6.1.y).</li>
 * </ul>
 *
 * @param nummasks        group_cpus_evenly takes {@code unsigned int *nummasks}
 * @param nullForZero     group_cpus_evenly returns NULL for 0 groups
 * @param clusters        group_cpus_evenly reads {@code topology_cluster_cpumask}
 * @param blkMqGrouped    blk_mq_map_queues calls group_cpus_evenly (else the legacy map)
 * @param blkMqHwQueues   block/blk-mq-cpumap.c has blk_mq_map_hw_queues
 * @param blkMqNumQueues  block/blk-mq-cpumap.c has blk_mq_num_possible_queues and blk_mq_num_online_queues
 */
public record TreeForms(boolean nummasks, boolean nullForZero, boolean clusters, boolean blkMqGrouped,
                        boolean blkMqHwQueues, boolean blkMqNumQueues) {

    private static final Pattern GROUP_CPUS_DEFINITION = Pattern.compile(
            "struct\\s+cpumask\\s*\\*\\s*group_cpus_evenly\\s*\\(([^)]*)\\)\\s*\\{");
    private static final Pattern NULL_FOR_ZERO = Pattern.compile("if\\s*\\(\\s*(?:numgrps\\s*==\\s*0|!\\s*numgrps)\\s*\\)\\s*return\\s+NULL\\b");
    private static final Pattern CALLS_GROUP_CPUS = Pattern.compile("\\bgroup_cpus_evenly\\s*\\(");

    /**
     * The forms of {@code tree}'s files.
     *
     * @throws UnusableTree when a file lacks its function, or irq_create_affinity_masks groups CPUs itself (before 6.3)
     */
    public static TreeForms of(KernelTree tree) {
        String group = withoutComments(tree.text("lib/group_cpus.c"));
        String blkMq = withoutComments(tree.text("block/blk-mq-cpumap.c"));
        String irq = withoutComments(tree.text("kernel/irq/affinity.c"));
        var definitions = GROUP_CPUS_DEFINITION.matcher(group);
        String parameters = null;
        while (definitions.find()) parameters = definitions.group(1);   // the SMP one comes first, the UP stub last: same parameters
        if (parameters == null)
            throw new UnusableTree(tree.file("lib/group_cpus.c") + ": found no definition of group_cpus_evenly(); expected"
                    + " struct cpumask *group_cpus_evenly(unsigned int numgrps[, unsigned int *nummasks]) { ... }");
        boolean nummasks = parameters.contains("nummasks") || parameters.contains(",");
        if (!blkMq.matches("(?s).*\\bblk_mq_map_queues\\s*\\(\\s*struct\\s+blk_mq_queue_map\\b.*"))
            throw new UnusableTree(tree.file("block/blk-mq-cpumap.c") + ": found no definition of blk_mq_map_queues(); expected"
                    + " void blk_mq_map_queues(struct blk_mq_queue_map *qmap) { ... }");
        if (!irq.matches("(?s).*\\birq_create_affinity_masks\\s*\\(.*"))
            throw new UnusableTree(tree.file("kernel/irq/affinity.c") + ": found no irq_create_affinity_masks(); expected"
                    + " the function that spreads a device's interrupt vectors");
        if (!CALLS_GROUP_CPUS.matcher(irq).find())
            throw new UnusableTree(tree.file("kernel/irq/affinity.c") + ": irq_create_affinity_masks() groups the CPUs itself"
                    + " (irq_build_affinity_masks, before 6.3); expected it to call group_cpus_evenly() (6.3+, and 6.1.y)");
        return new TreeForms(nummasks,
                NULL_FOR_ZERO.matcher(group).find(),
                group.contains("topology_cluster_cpumask"),
                CALLS_GROUP_CPUS.matcher(blkMq).find(),
                blkMq.matches("(?s).*\\bblk_mq_map_hw_queues\\s*\\(.*"),
                blkMq.contains("blk_mq_num_possible_queues") && blkMq.contains("blk_mq_num_online_queues"));
    }

    /** The compiler's {@code -D} options that make the shim match these forms. */
    public List<String> defines() {
        return nummasks ? List.of("-DKSHIM_GROUP_CPUS_NUMMASKS") : List.of();
    }

    /** One line for people: {@code group_cpus_evenly(numgrps, &nummasks), NULL for 0, clusters; ...}. */
    public String describe() {
        List<String> g = new ArrayList<>();
        g.add(nummasks ? "group_cpus_evenly(numgrps, &nummasks)" : "group_cpus_evenly(numgrps)");
        g.add(nullForZero ? "NULL for 0 groups" : "no NULL for 0 groups");
        if (clusters) g.add("cluster-aware");
        List<String> b = new ArrayList<>();
        b.add(blkMqGrouped ? "blk_mq_map_queues() via group_cpus_evenly" : "legacy blk_mq_map_queues()");
        if (blkMqHwQueues) b.add("blk_mq_map_hw_queues");
        if (blkMqNumQueues) b.add("blk_mq_num_*_queues");
        return String.join(", ", g) + "; " + String.join(", ", b) + "; irq_create_affinity_masks() via group_cpus_evenly";
    }

    /** {@code text} with its C comments blanked (line count kept), so a commented-out call does not count. */
    static String withoutComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? text.length() : end + 2;
                for (int k = i; k < end; k++) out.append(text.charAt(k) == '\n' ? '\n' : ' ');
                i = end;
            } else if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                end = end < 0 ? text.length() : end;
                for (int k = i; k < end; k++) out.append(' ');
                i = end;
            } else {
                out.append(text.charAt(i++));
            }
        }
        return out.toString();
    }
}
