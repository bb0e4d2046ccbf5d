package dev.numaspread.conformance.audit;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Which modelled releases explain everything a machine shows (spec/audit.md AUD-4): the audit
 * run once per release, {@link KernelRelease#OLDEST} to {@link KernelRelease#NEWEST}.
 */
public final class Identify {

    private Identify() {}

    /** The audit of each modelled release, ascending. */
    public static List<Audit.Result> everyRelease(Topology machine, List<Device> devices) {
        List<Audit.Result> out = new ArrayList<>();
        for (KernelRelease k : modelledReleases()) out.add(Audit.audit(machine, devices, k));
        return out;
    }

    /** The releases of {@code results} whose audit matches every device. */
    public static List<KernelRelease> explaining(List<Audit.Result> results) {
        return results.stream().filter(Audit.Result::matches).map(Audit.Result::kernel).toList();
    }

    /** The releases of {@code results} whose audit matches device {@code d}. */
    public static List<KernelRelease> explaining(List<Audit.Result> results, Device d) {
        int index = results.isEmpty() ? -1 : results.get(0).devices().stream().map(Audit.DeviceResult::device).toList().indexOf(d);
        return index < 0 ? List.of() : explaining(results, index);
    }

    /**
     * The releases of {@code results} whose audit matches their {@code index}-th device: every
     * audit lists the devices in the order it was given them, so a device is found by its place,
     * not by comparing it with every other (quadratic in the devices).
     */
    public static List<KernelRelease> explaining(List<Audit.Result> results, int index) {
        return results.stream().filter(r -> r.devices().get(index).matches()).map(Audit.Result::kernel).toList();
    }

    /**
     * {@code releases} as ranges of consecutive modelled releases: {@code 4.1-6.2, 6.12}; {@code none}
     * when empty.
     */
    public static String ranges(List<KernelRelease> releases) {
        List<KernelRelease> all = modelledReleases();
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < releases.size()) {
            int j = i;
            while (j + 1 < releases.size() && all.indexOf(releases.get(j + 1)) == all.indexOf(releases.get(j)) + 1) j++;
            out.add(i == j ? releases.get(i).toString() : releases.get(i) + "-" + releases.get(j));
            i = j + 1;
        }
        return out.isEmpty() ? "none" : String.join(", ", out);
    }

    private static List<KernelRelease> modelledReleases() {
        return KernelRelease.modelledReleases();
    }
}
