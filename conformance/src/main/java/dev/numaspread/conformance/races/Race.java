package dev.numaspread.conformance.races;

import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.HotplugRoutine;
import dev.numaspread.model.hotplug.InterleavingExplorer;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.siblingspread.SiblingSpread;

import java.util.ArrayList;
import java.util.List;

/**
 * A routine as the kit races it against CPU hotplug (spec/hotplug.md): what runs on the
 * {@link Machine}, the {@link OutcomeTable} its runs are graded by, and a line saying what it is.
 * The checks, the Cucumber glue and {@code numaspread races} build their races here, so a routine
 * is run and graded the same way everywhere.
 *
 * @param described the call in kernel words ({@link #what()}), made when it is shown
 * @param routine   what one run does; every kernel service goes through the machine
 * @param table     how the runs are graded
 */
public record Race(java.util.function.Supplier<String> described, HotplugRoutine<List<CpuSet>> routine, OutcomeTable table) {

    Race(String what, HotplugRoutine<List<CpuSet>> routine, OutcomeTable table) {
        this(() -> what, routine, table);
    }

    /**
     * The call in kernel words: {@code irq_setup(8 IRQs, node 0) under cpus_read_lock()}. Made when
     * asked, so a race that is run and not shown reads no release's text (the census of input
     * classes watches what a check reads of its release: {@code KernelRelease.Watch}).
     */
    public String what() {
        return described.get();
    }

    /**
     * Returns {@code irq_setup()} of {@code impl} as MANA's setup calls it: under its caller's
     * {@code cpus_read_lock()}, which {@code irq_setup()} itself never takes (SIB-*, HP-1).
     */
    public static HotplugRoutine<List<CpuSet>> irqSetupUnderCallersLock(Implementation impl, KernelRelease kernel, int node,
                                                                        int len, boolean skipFirstCpu) {
        HotplugRoutine<List<CpuSet>> irqSetup = m -> impl.irqSetup(kernel, m, node, len, skipFirstCpu);
        return irqSetup.underCpusReadLock();
    }

    /** {@code irq_setup()} of {@code impl} under its caller's lock, graded atomic (HP-1 .. HP-3). */
    public static Race irqSetup(Implementation impl, KernelRelease kernel, int node, int len, boolean skipFirstCpu) {
        return new Race(irqSetupText(node, len, skipFirstCpu) + " under cpus_read_lock()",
                irqSetupUnderCallersLock(impl, kernel, node, len, skipFirstCpu), OutcomeTable.ATOMIC);
    }

    /** {@code irq_setup()} of {@code impl} with no lock around it, graded atomic: what a caller without the lock risks. */
    public static Race irqSetupWithoutLock(Implementation impl, KernelRelease kernel, int node, int len, boolean skipFirstCpu) {
        return new Race(irqSetupText(node, len, skipFirstCpu) + " without the hotplug lock",
                m -> impl.irqSetup(kernel, m, node, len, skipFirstCpu), OutcomeTable.ATOMIC);
    }

    /** {@code mana_gd_setup_irqs()} of {@code impl}, graded by the table of the release ({@link OutcomeTable#ofManaSetupIrqs}). */
    public static Race manaSetupIrqs(Implementation impl, KernelRelease kernel, int node) {
        return new Race(() -> "mana_gd_setup_irqs(node " + node + ") of Linux " + kernel, m -> impl.manaSetupIrqs(kernel, m, node),
                OutcomeTable.ofManaSetupIrqs(kernel));
    }

    /**
     * The model's 6.9–6.16 {@code mana_gd_setup_irqs()} guarded as {@code variant} says, graded by
     * the table of the release: a third-party implementation has one code path, its release's.
     */
    public static Race manaSetupIrqs(SiblingSpread.Variant variant, KernelRelease kernel, int node) {
        return new Race("mana_gd_setup_irqs(node " + node + "), variant " + variant.id(), m -> variant.manaSetupIrqs(m, node),
                OutcomeTable.ofManaSetupIrqs(kernel));
    }

    /**
     * {@code cpumask_local_spread(i, node)} of the machine's release for {@code i = 0 .. count-1},
     * with or without the caller's lock, graded atomic: what a caller that needs one consistent
     * answer must get (HP-5 shows the classic code does not give it without the lock).
     */
    public static Race localSpread(int node, int count, boolean locked) {
        HotplugRoutine<List<CpuSet>> spread = m -> {
            List<CpuSet> r = new ArrayList<>(count);
            for (int i = 0; i < count; i++) r.add(CpuSet.of(m.cpumaskLocalSpread(i, node)));
            return List.copyOf(r);
        };
        return new Race("cpumask_local_spread(0.." + (count - 1) + ", node " + node + ")"
                + (locked ? " under cpus_read_lock()" : " without the hotplug lock"),
                locked ? spread.underCpusReadLock() : spread, OutcomeTable.ATOMIC);
    }

    /** The same race graded by {@code other}. */
    public Race gradedBy(OutcomeTable other) {
        return new Race(described, routine, other);
    }

    /** Every interleaving of the events {@code scope} names with this race on {@code config}, graded. */
    public Exploration<List<CpuSet>> explore(Machine.Config config, InterleavingExplorer.Scope scope) {
        return InterleavingExplorer.explore(config, routine, table, scope);
    }

    /** Every interleaving of every event the machine allows ({@link InterleavingExplorer.Scope#everyEvent}), graded. */
    public Exploration<List<CpuSet>> explore(Machine.Config config) {
        return InterleavingExplorer.explore(config, routine, table);
    }

    private static String irqSetupText(int node, int len, boolean skipFirstCpu) {
        return "irq_setup(" + len + " IRQs, node " + node + ")" + (skipFirstCpu ? " skipping the first core" : "");
    }
}
