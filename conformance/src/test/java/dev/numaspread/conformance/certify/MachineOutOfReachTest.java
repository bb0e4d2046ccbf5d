package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachinePool;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * "Not applicable here" is the kit's to say: the guard lets {@link MachineOutOfReach} through only
 * when the run's own machine pool raised it (a booted kernel's pool), never of an implementation's
 * accord, which would let it drop the inputs it fails on.
 */
class MachineOutOfReachTest {

    static final KernelRelease K = KernelRelease.of(6, 12);
    static final Topology M = TopologyBuilder.machine("m").node(0, "0-3").build();

    /** Local spread, refusing every call with {@code pool}'s signal. */
    static final class Refusing implements Implementation {
        final MachinePool pool;

        Refusing(MachinePool pool) {
            this.pool = pool;
        }

        @Override public String name() { return "refusing"; }
        @Override public List<Claim> claims() { return List.of(new Claim(Routine.LOCAL_SPREAD, K)); }

        @Override
        public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            throw new MachineOutOfReach(pool, "not one of my machines");
        }
    }

    @Test
    void theRunsPoolSaysNotApplicable() {
        MachinePool pool = MachinePool.of(List.of(M));
        Refusing impl = new Refusing(pool);
        GuardedImplementation guard = new GuardedImplementation(impl, impl.claims(), Duration.ofSeconds(5), false, Optional.of(pool));
        MachineOutOfReach e = assertThrows(MachineOutOfReach.class, () -> guard.localSpreadCpus(K, M, 0, 1));
        assertEquals("not one of my machines", e.getMessage());
        guard.close();
    }

    @Test
    void anotherPoolsSignalIsTheImplementationsError() {
        Refusing impl = new Refusing(MachinePool.of(List.of(M)));
        for (Optional<MachinePool> runs : List.of(Optional.<MachinePool>empty(), Optional.of(MachinePool.of(List.of(M))))) {
            GuardedImplementation guard = new GuardedImplementation(impl, impl.claims(), Duration.ofSeconds(5), false, runs);
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> guard.localSpreadCpus(K, M, 0, 1));
            assertTrue(e.getMessage().contains("it threw the kit's MachineOutOfReach (not one of my machines)"), e.getMessage());
            guard.close();
        }
    }
}
