package dev.numaspread.conformance.checks;

import java.util.ArrayList;
import java.util.List;

/** Every check family of the kit. The certifier runs these; the coverage gate reads their rule ids. */
public final class AllChecks {
    private AllChecks() {}

    public static List<CheckFamily> families() {
        List<CheckFamily> families = new ArrayList<>();
        // One line per family, e.g. families.add(new LocalSpreadChecks());
        families.add(new LocalSpreadChecks());
        families.add(new NumaChecks());
        families.add(new Mlx5Checks());
        families.add(new GroupCpusChecks());
        families.add(new BlkMqChecks());
        families.add(new SiblingSpreadChecks());
        families.add(new HotplugChecks());
        families.add(new PagePoolChecks());
        families.add(new NicChecks());
        families.add(new KernelRunChecks());
        return families;
    }

    public static List<Check> all() {
        List<Check> out = new ArrayList<>();
        for (CheckFamily f : families()) out.addAll(f.checks());
        return out;
    }
}
