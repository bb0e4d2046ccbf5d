package dev.numaspread.kernel.certify;

import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a booted kernel's machine is the machine a call is about, for every routine the probe
 * answers: the same possible, present and online CPUs, the same nodes (ids, CPUs, memory or not),
 * distances, SMT siblings, clusters and CPU model, and the same packages when the call's machine
 * states them (a fixture without packages leaves them to QEMU's sockets). Names, sources and node
 * sizes do not count: no routine reads them.
 */
final class SameMachine {
    private SameMachine() {}

    /** True when {@code booted} answers for {@code asked}, online CPUs aside. */
    static boolean sameHardware(Topology asked, Topology booted) {
        return asked.possible().equals(booted.possible()) && asked.present().equals(booted.present())
                && differences(asked, booted, false).isEmpty();
    }

    /**
     * What differs between the machine asked for and the one booted, in words ({@code "node 3 is
     * node 2 in the booted kernel"}); empty when the booted one answers for it. The online CPUs count
     * when {@code online} is true.
     */
    static List<String> differences(Topology asked, Topology booted, boolean online) {
        List<String> out = new ArrayList<>();
        if (!asked.possible().equals(booted.possible()))
            out.add("possible CPUs " + asked.possible().toList() + " became " + booted.possible().toList());
        if (!asked.present().equals(booted.present()))
            out.add("present CPUs " + asked.present().toList() + " became " + booted.present().toList());
        if (online && !asked.online().equals(booted.online()))
            out.add("online CPUs " + asked.online().toList() + " became " + booted.online().toList());
        if (!out.isEmpty()) return out;
        List<Node> a = asked.nodes(), b = booted.nodes();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            Optional<Node> x = i < a.size() ? Optional.of(a.get(i)) : Optional.empty();
            Optional<Node> y = i < b.size() ? Optional.of(b.get(i)) : Optional.empty();
            if (x.isEmpty()) {
                out.add("the booted kernel has a node " + y.get().id() + " more");
            } else if (y.isEmpty()) {
                out.add("node " + x.get().id() + " is not in the booted kernel (a node without CPUs and memory does not exist)");
            } else if (x.get().id() != y.get().id()) {
                out.add("node " + x.get().id() + " is node " + y.get().id() + " in the booted kernel (x86 numbers nodes 0, 1, 2, ...)");
            } else if (!x.get().cpus().equals(y.get().cpus())) {
                out.add("node " + x.get().id() + " has CPUs " + y.get().cpus().toList() + " in the booted kernel, not " + x.get().cpus().toList());
            } else if (x.get().hasMemory() != y.get().hasMemory()) {
                out.add("node " + x.get().id() + (y.get().hasMemory() ? " has memory" : " has no memory") + " in the booted kernel");
            }
            if (!out.isEmpty()) return out;
        }
        if (!asked.distances().equals(booted.distances())) out.add("the booted kernel has other distances (" + booted.distances() + ")");
        if (!asked.smtSiblings().equals(booted.smtSiblings())) out.add("the booted kernel has other SMT siblings");
        if (!asked.clusters().equals(booted.clusters())) out.add("the booted kernel has other clusters (CPUs sharing an L2)");
        if (asked.cpuModel() != booted.cpuModel())
            out.add("the booted kernel's CPU model is " + booted.cpuModel().id() + ", not " + asked.cpuModel().id());
        if (!asked.packages().isEmpty() && !asked.packages().equals(booted.packages())) out.add("the booted kernel has other packages");
        return out;
    }
}
