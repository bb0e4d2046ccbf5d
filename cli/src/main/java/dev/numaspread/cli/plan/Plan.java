package dev.numaspread.cli.plan;

import dev.numaspread.model.cpu.CpuSet;

import java.util.ArrayList;
import java.util.List;

/**
 * What a routine gave for a device, computed once (the glossary's plan): one CPU set per slot
 * (queue, hop, group, IRQ), or the queue of every CPU ({@code blk_mq_map_queues()}). A
 * {@link PlanFormat} turns it into text.
 */
public sealed interface Plan permits Plan.Slots, Plan.QueueMap {

    /** What one slot is, as the table and JSON name it: {@code queue}, {@code hop}, {@code group}, {@code irq}, {@code vector}. */
    String word();

    /** The CPUs of slot {@code i}, for every slot in order; empty for a slot without a CPU. */
    List<CpuSet> slots();

    /**
     * One CPU set per slot. For IRQ affinities ({@code affinities}) an empty set is an IRQ the
     * routine left untouched (SIB-8): it never sets an empty affinity. Otherwise an empty set is a
     * slot without a CPU (a "none" answer, an empty ring).
     */
    record Slots(String word, List<CpuSet> slots, boolean affinities) implements Plan {
        public Slots {
            slots = List.copyOf(slots);
        }

        /** Queues, hops or groups. */
        public static Slots of(String word, List<CpuSet> sets) {
            return new Slots(word, sets, false);
        }

        /** The affinities of {@code count} IRQs, of which the routine assigned {@code assigned}, in order; the rest it left untouched. */
        public static Slots affinities(String word, List<CpuSet> assigned, int count) {
            List<CpuSet> out = new ArrayList<>(assigned);
            while (out.size() < count) out.add(CpuSet.EMPTY);
            return new Slots(word, out, true);
        }

        /** True when slot {@code i} is an IRQ the routine left untouched. */
        public boolean isUntouched(int i) {
            return affinities && slots.get(i).isEmpty();
        }
    }

    /**
     * {@code blk_mq_map_queues()}: the queue of each CPU id ({@code -1} for an id that is not
     * possible), for the queues {@code offset .. offset + count - 1}.
     */
    record QueueMap(int[] queueOfCpu, int offset, int count) implements Plan {
        public QueueMap {
            queueOfCpu = queueOfCpu.clone();
        }

        @Override
        public int[] queueOfCpu() {
            return queueOfCpu.clone();
        }

        // Alike on purpose (duplicates, issue 26) with ReferenceModel: an override naming a constant, then a list built in a loop; nothing to share.
        @Override
        public String word() {
            return "queue";
        }

        /** The CPUs of each queue, {@code offset} first. */
        @Override
        public List<CpuSet> slots() {
            List<CpuSet> out = new ArrayList<>();
            for (int k = 0; k < count; k++) {
                CpuSet.Builder b = CpuSet.builder();
                for (int c = 0; c < queueOfCpu.length; c++) if (queueOfCpu[c] == offset + k) b.add(c);
                out.add(b.build());
            }
            return List.copyOf(out);
        }
    }
}
