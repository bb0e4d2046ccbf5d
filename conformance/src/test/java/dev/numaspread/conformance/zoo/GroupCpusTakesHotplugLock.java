package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** M14: group_cpus_evenly() takes {@code cpus_read_lock()} around its work, as before 6.7. */
final class GroupCpusTakesHotplugLock extends SiblingSpreadZooBase {
    @Override
    public List<Claim> claims() {
        List<Claim> c = new ArrayList<>(model.claims());
        c.add(Claim.of("group-cpus", "6.8"));
        return c;
    }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Machine m, int numgrps) {
        m.cpusReadLock();
        try {
            CpuSet present = m.topology().present();
            List<CpuSet> groups = new ArrayList<>();
            for (int g = 0; g < numgrps; g++) groups.add(CpuSet.EMPTY);
            int i = 0;
            for (int cpu : present.toArray()) groups.set(i++ % numgrps, groups.get((i - 1) % numgrps).with(cpu));
            return Optional.of(groups);
        } finally {
            m.cpusReadUnlock();
        }
    }
}
