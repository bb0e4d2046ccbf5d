package dev.numaspread.model.group;

import java.util.List;

/**
 * How the nvme driver splits its I/O queues into queue types (spec/audit.md AUD-8), as
 * drivers/nvme/host/pci.c does in 6.1, 6.12 and 7.3 alike: poll queues ({@code poll_queues})
 * get no IRQ; the I/O vectors left are one interrupt set, or two when {@code write_queues} is
 * set: write (the default type) then read.
 */
public final class NvmeQueues {

    private NvmeQueues() {}

    /**
     * {@code nvme_calc_irq_sets()}: the interrupt set sizes of {@code nrirqs} I/O vectors, write
     * (default) queues first, then read queues when there are some; empty for the default single
     * set (no read queues). One vector, or {@code writeQueues} 0, makes one set of them all;
     * {@code writeQueues} at least {@code nrirqs} leaves one read queue.
     *
     * @throws IllegalArgumentException for a negative count
     */
    public static List<Integer> irqSets(int nrirqs, int writeQueues) {
        if (nrirqs < 0 || writeQueues < 0)
            throw new IllegalArgumentException("irqSets: nrirqs " + nrirqs + ", write_queues " + writeQueues + "; expected 0 or more");
        int read;
        if (nrirqs <= 1 || writeQueues == 0) read = 0;
        else if (writeQueues >= nrirqs) read = 1;
        else read = nrirqs - writeQueues;
        return read == 0 ? List.of() : List.of(nrirqs - read, read);
    }
}
