package dev.numaspread.cli.plan;

import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;

/**
 * How {@code numaspread plan} asks an implementation for one routine's plan ({@link PlanRoutines}
 * holds one per routine). The routines that act on a {@link Machine} ({@code irq-setup},
 * {@code mana-setup-irqs}) run on one booted from the topology, on which no hotplug event arrives.
 */
@FunctionalInterface
public interface PlanRoutine {

    /**
     * The plan {@code impl} gives for {@code request}.
     *
     * @throws KernelBug                     when the release itself would fail there
     * @throws IllegalArgumentException      when the request lacks an argument the routine needs
     * @throws UnsupportedOperationException when {@code impl} does not have the routine
     */
    Plan plan(Implementation impl, PlanRequest request);
}
