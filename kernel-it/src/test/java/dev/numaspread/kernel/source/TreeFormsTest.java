package dev.numaspread.kernel.source;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The forms read from a tree's files. The files here are our own few lines, shaped like the
 * kernel's declarations (spec/group-cpus.md, spec/blk-mq.md), not copies of them.
 */
class TreeFormsTest {

    static final String GROUPED_MAP = "void blk_mq_map_queues(struct blk_mq_queue_map *qmap)\n{\n\tmasks = group_cpus_evenly(qmap->nr_queues);\n}\n";
    static final String IRQ = "struct irq_affinity_desc *\nirq_create_affinity_masks(unsigned int nvecs, struct irq_affinity *affd)\n"
            + "{\n\tresult = group_cpus_evenly(this_vecs);\n}\n";

    static KernelTree tree(Path dir, String groupCpus, String blkMq, String irq) throws IOException {
        KernelTreeTest.tree(dir, "VERSION = 6\nPATCHLEVEL = 12\n", "");
        Files.writeString(dir.resolve("lib/group_cpus.c"), groupCpus);
        Files.writeString(dir.resolve("block/blk-mq-cpumap.c"), blkMq);
        Files.writeString(dir.resolve("kernel/irq/affinity.c"), irq);
        return KernelTree.open(dir);
    }

    @Test
    void oneArgumentGroupingWithTheGroupedMap(@TempDir Path dir) throws IOException {
        TreeForms f = TreeForms.of(tree(dir, "struct cpumask *group_cpus_evenly(unsigned int numgrps)\n{\n\tif (numgrps == 0)\n\t\treturn NULL;\n}\n",
                GROUPED_MAP, IRQ));
        assertEquals(new TreeForms(false, true, false, true, false, false), f);
        assertEquals(List.of(), f.defines());
        assertEquals("group_cpus_evenly(numgrps), NULL for 0 groups; blk_mq_map_queues() via group_cpus_evenly;"
                + " irq_create_affinity_masks() via group_cpus_evenly", f.describe());
    }

    @Test
    void nummasksClustersAndTheHwQueueHelpers(@TempDir Path dir) throws IOException {
        TreeForms f = TreeForms.of(tree(dir, "/* group_cpus_evenly(unsigned int numgrps) in a comment */\n"
                        + "struct cpumask *group_cpus_evenly(unsigned int numgrps, unsigned int *nummasks)\n{\n\tWARN_ON_ONCE(numgrps == 0);\n"
                        + "\tm = topology_cluster_cpumask(cpu);\n}\n",
                GROUPED_MAP + "void blk_mq_map_hw_queues(struct blk_mq_queue_map *qmap, struct device *dev, unsigned int offset)\n{\n}\n"
                        + "unsigned int blk_mq_num_possible_queues(unsigned int max_queues)\n{\n}\nunsigned int blk_mq_num_online_queues(unsigned int m)\n{\n}\n",
                IRQ));
        assertEquals(new TreeForms(true, false, true, true, true, true), f);
        assertEquals(List.of("-DKSHIM_GROUP_CPUS_NUMMASKS"), f.defines());
    }

    @Test
    void theLegacyMapCallsNoGrouping(@TempDir Path dir) throws IOException {
        TreeForms f = TreeForms.of(tree(dir, "struct cpumask *group_cpus_evenly(unsigned int numgrps)\n{\n}\n",
                "void blk_mq_map_queues(struct blk_mq_queue_map *qmap)\n{\n\t/* no group_cpus_evenly( here */\n\tq = 0;\n}\n", IRQ));
        assertFalse(f.blkMqGrouped());
        assertTrue(f.describe().contains("legacy blk_mq_map_queues()"), f.describe());
    }

    @Test
    void anAffinityFileThatGroupsItselfIsAUsageError(@TempDir Path dir) throws IOException {
        KernelTree t = tree(dir, "struct cpumask *group_cpus_evenly(unsigned int numgrps)\n{\n}\n", GROUPED_MAP,
                "irq_create_affinity_masks(unsigned int nvecs, struct irq_affinity *affd)\n{\n\tirq_build_affinity_masks(0, affd);\n}\n");
        UnusableTree e = assertThrows(UnusableTree.class, () -> TreeForms.of(t));
        assertEquals(dir.resolve("kernel/irq/affinity.c") + ": irq_create_affinity_masks() groups the CPUs itself (irq_build_affinity_masks,"
                + " before 6.3); expected it to call group_cpus_evenly() (6.3+, and 6.1.y)", e.getMessage());
    }

    @Test
    void aGroupingFileWithoutTheFunctionIsAUsageError(@TempDir Path dir) throws IOException {
        KernelTree t = tree(dir, "int nothing_here;\n", GROUPED_MAP, IRQ);
        UnusableTree e = assertThrows(UnusableTree.class, () -> TreeForms.of(t));
        assertTrue(e.getMessage().startsWith(dir.resolve("lib/group_cpus.c") + ": found no definition of group_cpus_evenly()"), e.getMessage());
    }
}
