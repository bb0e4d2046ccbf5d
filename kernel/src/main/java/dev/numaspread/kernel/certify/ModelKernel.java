package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.guest.CannotBuild;
import dev.numaspread.kernel.guest.Guest;
import dev.numaspread.kernel.guest.GuestFailure;
import dev.numaspread.kernel.guest.QemuMachine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.numa.NumaNearestNode;
import dev.numaspread.model.numa.NumaNth;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.CpuPackage;
import dev.numaspread.model.topology.DistanceTable;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A stand-in for a booted kernel, answered by the reference model of one release: the
 * booted-machine mode of {@code certify --impl kernel:} runs on it without QEMU ({@code kernel:model-7.3},
 * a dry run, and the tests of this package). It imitates what a booted x86 kernel under QEMU changes
 * of the machine asked for, so the kit meets those changes before a real kernel shows them:
 * <ul>
 *   <li>a node with neither CPUs nor memory is not in the firmware tables, so it does not exist, and
 *       the nodes are numbered 0, 1, 2, ... in the order of their ids (x86 maps proximity domains to
 *       node ids in the order it meets them);</li>
 *   <li>a machine without packages gets one package (QEMU's one socket); clusters are the SMT cores
 *       (QEMU 7.2 has no L2 shared by several cores); node sizes are what the guest was given;</li>
 *   <li>CPU 0 cannot be taken offline (x86 without {@code cpu0_hotplug});</li>
 *   <li>after a kernel bug (an oops) the guest answers nothing more.</li>
 * </ul>
 * What QEMU cannot build ({@link #cannotBuild}) is refused as the QEMU side refuses it ({@link QemuMachine#of}).
 */
public final class ModelKernel implements BootableKernel {

    /** The memory the stand-in gives each node that has memory, as the QEMU side would: {@value} MiB. */
    static final long NODE_MIB = 256;

    private final KernelRelease series;
    private final KernelRelease answersAs;

    /** A stand-in for a kernel of {@code series} that answers as {@code series} does. */
    public ModelKernel(KernelRelease series) {
        this(series, series);
    }

    /**
     * A stand-in that calls itself {@code series} and answers as {@code answersAs} does: a kernel
     * whose behaviour differs from its version (a backport, a patched build), for the tests that the
     * kit tells them apart.
     */
    public ModelKernel(KernelRelease series, KernelRelease answersAs) {
        this.series = series;
        this.answersAs = answersAs;
    }

    @Override public String release() { return series + ".0-model"; }
    @Override public KernelRelease series() { return series; }

    @Override
    public Set<Guest.Call> answers() {
        Set<Guest.Call> out = EnumSet.noneOf(Guest.Call.class);
        for (Claim c : new ReferenceModel().claims())
            if (c.kernel().equals(answersAs))
                for (Guest.Call call : Guest.Call.values()) if (call.routine() == c.routine()) out.add(call);
        return out;
    }

    @Override
    public Optional<String> whyNot(Guest.Call call) {
        return answers().contains(call) ? Optional.empty()
                : Optional.of(call.routine().kernelName() + " is not in Linux " + answersAs);
    }

    @Override
    public List<String> commandLine(Topology m) {
        List<String> why = cannotBuild(m);
        if (!why.isEmpty()) throw new CannotBuild(String.join("; ", why));
        List<String> out = new ArrayList<>(List.of("(model)", "-smp", "cpus=" + m.present().size() + ",maxcpus=" + m.possible().size()));
        for (Node n : m.nodes()) out.add("-numa node,nodeid=" + n.id() + (n.cpus().isEmpty() ? "" : ",cpus=" + n.cpus().toList()));
        return out;
    }

    @Override
    public Guest boot(Topology m) {
        List<String> why = cannotBuild(m);
        if (!why.isEmpty()) throw new CannotBuild(String.join("; ", why));
        return new ModelGuest(release(), series, answersAs, answers(), booted(m));
    }

    /** {@code m} as the stand-in kernel sees it after booting (the class comment says what changes). */
    static Topology booted(Topology m) {
        List<Node> kept = new ArrayList<>();
        for (Node n : m.nodes()) if (!n.cpus().isEmpty() || n.hasMemory()) kept.add(n);
        int[] oldIds = kept.stream().mapToInt(Node::id).toArray();
        List<Node> nodes = new ArrayList<>();
        int[][] rows = new int[oldIds.length][oldIds.length];
        int[] newIds = new int[oldIds.length];
        for (int i = 0; i < oldIds.length; i++) {
            Node n = kept.get(i);
            newIds[i] = i;
            nodes.add(new Node(i, n.cpus(), n.hasMemory(), n.hasMemory() ? NODE_MIB : 0));
            for (int j = 0; j < oldIds.length; j++) rows[i][j] = m.distance(oldIds[i], oldIds[j]);
        }
        List<CpuPackage> packages = m.packages().isEmpty() ? List.of(new CpuPackage(0, m.possible())) : m.packages();
        return new Topology("booted " + m.name(), "ModelKernel", m.possible(), m.present(), m.online(), nodes,
                DistanceTable.of(newIds, rows), m.smtSiblings(), packages, m.smtSiblings(), m.cpuModel());
    }

    /** A guest of the stand-in kernel: the reference model of {@code answersAs} on the booted machine. */
    static final class ModelGuest implements Guest {
        private final String release;
        private final KernelRelease series;
        private final KernelRelease k;
        private final Set<Call> answers;
        private volatile Topology machine;
        private volatile String dead;

        ModelGuest(String release, KernelRelease series, KernelRelease answersAs, Set<Call> answers, Topology machine) {
            this.release = release;
            this.series = series;
            this.k = answersAs;
            this.answers = answers;
            this.machine = machine;
        }

        @Override public String release() { return release; }
        @Override public KernelRelease series() { return series; }
        @Override public Topology machine() { return machine; }
        @Override public Set<Call> answers() { return answers; }

        @Override
        public Optional<String> whyNot(Call call) {
            return answers.contains(call) ? Optional.empty() : Optional.of(call.routine().kernelName() + " is not in Linux " + k);
        }

        @Override
        public synchronized void setOnline(CpuSet online) {
            alive();
            if (!online.contains(0)) throw new CannotBuild("CPU 0 cannot be taken offline on x86");
            if (!online.isSubsetOf(machine.present()))
                throw new CannotBuild("CPUs " + online.andNot(machine.present()).toList() + " are not present; only present CPUs go online");
            machine = machine.withOnline(online);
        }

        @Override public int[] localSpread(int node, int count) { return ask(() -> LocalSpread.localSpreadCpus(k, machine, node, count)); }
        @Override public int[] numaLevels() { return ask(() -> NumaLevels.of(k, machine).distances()); }
        @Override public List<CpuSet> hopMasks(int node) { return ask(() -> NumaHops.hopMasks(k, machine, node)); }
        @Override public int numaNth(CpuSet cpus, int n, int node) { return ask(() -> NumaNth.numaNth(k, machine, cpus, n, node)); }
        @Override public int numaClosest(CpuSet cpus, int cpu) { return ask(() -> NumaClosest.numaClosest(k, machine, cpus, cpu)); }

        @Override
        public int[] numaClosestCalls(int callingCpu, int prev, List<NumaClosest.Call> calls) {
            return ask(() -> NumaClosest.numaClosestSequence(k, machine, calls, prev));
        }

        @Override public int numaNearestNode(int node) { return ask(() -> NumaNearestNode.numaNearestNode(k, machine, node)); }
        @Override public Optional<List<CpuSet>> groupCpusEvenly(int numgrps) { return ask(() -> GroupCpusEvenly.groupCpusEvenly(k, machine, numgrps)); }

        @Override
        public OptionalInt groupCpusNummasks(int numgrps) {
            return ask(() -> GroupCpusEvenly.grouping(k, machine, numgrps).map(g -> OptionalInt.of(g.nummasks())).orElse(OptionalInt.empty()));
        }

        /**
         * The experiment of a booted kernel from the model of its release: a release that takes
         * {@code cpus_read_lock()} in {@code group_cpus_evenly} (6.3 to 6.5) deadlocks, as the online
         * would never complete; the others give their groups with the lock held by the online.
         */
        @Override
        public synchronized UnderHotplug groupCpusDuringOnline(int numgrps, int cpu) {
            alive();
            if (cpu == 0 || !machine.present().contains(cpu))
                throw new CannotBuild("cpu " + cpu + " cannot be brought online here: CPU 0 never goes offline on x86; others must be present");
            if (GroupCpusEvenly.takesHotplugLock(k)) {
                dead = "the kernel oopsed earlier (a deadlock in the online of cpu " + cpu + ")";
                throw new KernelBug("deadlock", "Linux " + release + " (the model of " + k + ") did not bring cpu " + cpu
                        + " online: group_cpus_evenly(" + numgrps + ") in its hotplug callback takes cpus_read_lock(), which the online holds");
            }
            return new UnderHotplug(cpu, true, ask(() -> GroupCpusEvenly.groupCpusEvenly(k, machine, numgrps)));
        }

        @Override public int[] blkMqMapQueues(int queues, int offset) { return ask(() -> BlkMqMap.blkMqMapQueues(k, machine, queues, offset)); }

        @Override
        public Optional<List<IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(int nvecs, int preVectors, int postVectors, List<Integer> setSizes) {
            return ask(() -> IrqAffinity.irqCreateAffinityMasks(k, machine, nvecs, preVectors, postVectors, setSizes));
        }

        @Override
        public void close() {
            dead = "powered off";
        }

        @Override
        public boolean oopsed() {
            return dead != null && dead.startsWith("the kernel oopsed");
        }

        private <T> T ask(Supplier<T> call) {
            alive();
            try {
                return call.get();
            } catch (KernelBug bug) {
                dead = "the kernel oopsed earlier (" + bug.getMessage() + ")";
                throw bug;
            }
        }

        private void alive() {
            if (dead != null) throw new GuestFailure("the guest does not answer: " + dead);
        }
    }
}
