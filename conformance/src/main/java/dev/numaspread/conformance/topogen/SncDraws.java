package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

/**
 * Machines whose scheduler distances x86 may rewrite (spec/numa-levels.md LVL-6 to LVL-8): Intel
 * SNC-style machines of 2 to 4 packages with 2 to 4 nodes each, nodes numbered package by package
 * as firmware numbers them, in-package distances 11..18 and remote ones 20..32 (both directions
 * drawn apart, as Granite Rapids' SNC-3 table has them). Some draws leave the SNC form or the
 * hook's reach on purpose:
 * <pre>
 *   share   what                                        tells apart
 *   ~45 %   two nodes per package (SNC-2)               LVL-8's SNC-2 rule: node_distance() kept
 *   ~55 %   three or four (SNC-3 and more)              LVL-8's per-package-pair average
 *   ~10 %   cpu-model other                             a hook applied to any machine
 *   ~15 %   remote distances 16..24 (some below 20)     6.19.0's "20 or more" test (LVL-7, retired)
 *   ~12 %   an in-package pair asymmetric               slit_validate()'s fall-back (LVL-8)
 *   ~12 %   one CPU offline                             the online CPUs the kernel counts
 * </pre>
 * The simplest draw is two packages of two one-CPU nodes on Granite Rapids-X, remote distance 20.
 */
public final class SncDraws {
    private SncDraws() {}

    /**
     * An SNC-style machine, as the class comment says; under a machine pool (a booted kernel's), a
     * machine of the pool of two or more packages with two or more nodes each.
     */
    public static Gen<Topology> sncMachines() {
        return MachineGen.poolOr(drawnSncMachines(), SncDraws::isSncForm, "of two or more packages with two or more nodes each (SNC)");
    }

    /** True for a machine of 2 or more packages, each holding 2 or more nodes with CPUs. */
    static boolean isSncForm(Topology m) {
        if (m.packages().size() < 2) return false;
        for (var p : m.packages()) if (m.nodesOf(p.cpus().and(m.present())).size() < 2) return false;
        return true;
    }

    private static Gen<Topology> drawnSncMachines() {
        return c -> {
            int packages = 2 + (c.chance(25) ? c.choose(1, 2) : 0);
            int perPackage = 2 + c.weighted(45, 40, 15);   // SNC-2 and SNC-3 alike often (issue 24)
            int cpusPerNode = c.choose(1, 3);
            CpuModel model = switch (c.weighted(55, 35, 10)) {
                case 0 -> CpuModel.INTEL_GRANITERAPIDS_X;
                case 1 -> CpuModel.INTEL_ATOM_DARKMONT_X;
                default -> CpuModel.OTHER;
            };
            boolean near = c.chance(15);
            boolean broken = c.chance(12);
            int nodes = packages * perPackage;
            int[][] d = new int[nodes][nodes];
            for (int i = 0; i < nodes; i++) {
                d[i][i] = 10;
                for (int j = 0; j < i; j++) {
                    if (i / perPackage == j / perPackage) {
                        d[i][j] = d[j][i] = 11 + c.choose(0, 7);
                    } else {
                        int lo = near ? 16 : 20, span = near ? 8 : 12;
                        d[i][j] = lo + c.choose(0, span);
                        d[j][i] = lo + c.choose(0, span);
                    }
                }
            }
            if (broken) {
                int p = c.choose(0, packages - 1);
                int a = p * perPackage, b = a + 1;
                d[a][b] = d[a][b] + 1;                 // 12..19: still a package's own distance
            }
            int cpus = nodes * cpusPerNode;
            TopologyBuilder b = TopologyBuilder.machine("snc-drawn").source("SncDraws").cpuModel(model)
                    .possible(CpuSet.range(0, cpus - 1)).present(CpuSet.range(0, cpus - 1));
            for (int n = 0; n < nodes; n++) b.node(n, CpuSet.range(n * cpusPerNode, n * cpusPerNode + cpusPerNode - 1));
            for (int p = 0; p < packages; p++)
                b.pkg(p, CpuSet.range(p * perPackage * cpusPerNode, (p + 1) * perPackage * cpusPerNode - 1));
            CpuSet online = CpuSet.range(0, cpus - 1);
            if (c.chance(12)) online = online.without(c.choose(1, cpus - 1));
            b.online(online);
            return b.distances(d).build();
        };
    }

    /**
     * A device on an SNC-style machine ({@link #sncMachines()}): any of its nodes, all of which
     * have CPUs. The simplest is node 0 of the simplest SNC machine.
     */
    public static Gen<DeviceDraws.Device> sncDevices() {
        Gen<Topology> snc = sncMachines();
        return c -> {
            Topology m = snc.generate(c);
            int[] ids = m.nodeIds();
            return new DeviceDraws.Device(m, ids[c.choose(0, ids.length - 1)]);
        };
    }

    /**
     * {@code snc}'s draws, none in a small scope's exhaustive walk (each draw there is a discard):
     * a small scope holds no SNC machine, so SNC tries would only walk again machines the walk of a
     * check's other inputs has (ExhaustiveExampleTest's case count).
     */
    public static <T> Gen<T> outsideSmallScopes(Gen<T> snc) {
        return c -> {
            if (c.smallScope().isPresent()) throw new Gen.Unsatisfiable("no SNC machine within a small scope");
            return snc.generate(c);
        };
    }

    /** Half the draws from {@link #sncMachines()}, half from {@code others}. */
    public static Gen<Topology> sometimesSnc(Gen<Topology> others) {
        Gen<Topology> snc = sncMachines();
        // An SNC machine has at least 4 CPUs (2 packages of 2 nodes): outside a small scope's
        // exhaustive walk, which it would only blow up (its distances are many choices).
        return c -> c.smallScope().isEmpty() && c.chance(50) ? snc.generate(c) : others.generate(c);
    }
}
