package dev.numaspread.cli;

import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import picocli.CommandLine.Option;

import java.util.Optional;

/** The options of the MANA routines (spec/sibling-spread.md) {@code plan} and {@code races} share (a picocli mixin): what the PCI core grants, and the 6.17+ switches. */
final class SiblingSpreadOptions {

    /** The most MSI-X vectors {@code --granted} may name: a device has at most 2048 (PCI MSI-X table size). */
    static final int MAX_GRANTED = 2048;

    @Option(names = "--granted", paramLabel = "N",
            description = "mana-setup-irqs: MSI-X vectors the PCI core grants, 0 to " + MAX_GRANTED + " (default: every vector the driver asks for)")
    Integer granted;

    @Option(names = "--dynamic-msix", description = "mana-setup-irqs, 6.17+: pci_msix_can_alloc_dyn() is true")
    boolean dynamicMsix;

    @Option(names = "--skip-first-cpu", description = "irq-setup, 6.17+: irq_setup() skips the first core of hop 0 once")
    boolean skipFirstCpu;

    /**
     * Checks the options against the release.
     *
     * @throws IllegalArgumentException {@code --option value: what is wrong; expected ...}
     */
    void check(KernelRelease kernel) {
        if (granted != null && (granted < 0 || granted > MAX_GRANTED))
            throw new IllegalArgumentException("--granted " + granted + ": out of range; expected 0 to " + MAX_GRANTED);
        if (skipFirstCpu && kernel.before(6, 17))
            throw new IllegalArgumentException("--skip-first-cpu: Linux " + kernel + " has no skip_first_cpu; expected 6.17 or later"
                    + " (commit 845c62c543d6 \"net: mana: Allow irq_setup() to skip cpus for affinity\")");
    }

    Optional<Integer> granted() {
        return Optional.ofNullable(granted);
    }

    /** The machine the driver probes: the topology, the release, the vectors granted and the MSI-X kind. */
    Machine.Config config(Topology machine, KernelRelease kernel) {
        Machine.Config config = Machine.Config.of(machine, kernel).withDynamicMsix(dynamicMsix);
        return granted == null ? config : config.withGrantedVectors(granted);
    }
}
