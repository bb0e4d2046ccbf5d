package dev.numaspread.kernel.guest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a booted kernel answered on its machine, in the format of {@code fixtures/kernel-runs/*.json}
 * (that folder's README): {@code kernel}, {@code machine}, {@code description} and {@code results},
 * whose keys are the kernel calls (a call the release lacks is left out). Every value is the
 * kernel's own answer, asked through the probe; none is computed here.
 *
 * <p>{@code find_closest} is asked in file order (labels in order, CPUs ascending) on the first
 * online CPU, whose round-robin cursor is set to 0 first; {@code find_closest_start} at the top says
 * so, so that a 6.16+ run can be replayed from that state.
 */
public final class GuestRun {

    private GuestRun() {}

    /** The run of {@code guest} now, as JSON text; {@code machineFile} is the {@code .topo} written beside it. */
    public static String json(QemuGuest guest, String machineFile, String description) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("kernel", guest.release());
        root.put("machine", machineFile);
        root.put("description", description);
        Topology t = guest.machine();
        ObjectNode r = root.putObject("results");
        int online = t.online().size();
        int n = t.present().size();
        List<Integer> nodes = new ArrayList<>(List.of(-1));
        for (Node node : t.nodes()) if (!t.onlineCpusOf(node.id()).isEmpty() || node.hasMemory()) nodes.add(node.id());
        var calls = guest.answers();

        if (calls.contains(Guest.Call.LOCAL_SPREAD)) {
            ObjectNode ls = r.putObject("local_spread");
            for (int node : nodes) ints(ls.putArray(Integer.toString(node)), guest.localSpread(node, 2 * online + 1));
        }
        if (calls.contains(Guest.Call.HOP_MASKS)) {
            ObjectNode hop = r.putObject("hop_masks");
            for (int node : nodes) lists(hop.putArray(Integer.toString(node)), guest.hopMasks(node));
        }
        Map<String, CpuSet> labels = labels(t);
        if (calls.contains(Guest.Call.NUMA_NTH)) {
            ObjectNode nth = r.putObject("find_nth");
            for (Map.Entry<String, CpuSet> e : labels.entrySet()) {
                ObjectNode l = nth.putObject(e.getKey());
                l.put("mask", e.getValue().toList());
                ObjectNode by = l.putObject("by_node");
                for (int node : nodes) {
                    ArrayNode a = by.putArray(Integer.toString(node));
                    for (int i = 0; i <= e.getValue().size(); i++) a.add(guest.numaNth(e.getValue(), i, node));
                }
            }
        }
        if (calls.contains(Guest.Call.NUMA_CLOSEST)) {
            int callingCpu = t.online().first();
            root.putObject("find_closest_start").put("cpu", callingCpu).put("prev", 0);
            List<NumaClosest.Call> seq = new ArrayList<>();
            for (CpuSet cpus : labels.values()) for (int cpu : t.online().toArray()) seq.add(new NumaClosest.Call(cpus, cpu));
            int[] res = guest.numaClosestCalls(callingCpu, 0, seq);
            ObjectNode fc = r.putObject("find_closest");
            int k = 0;
            for (Map.Entry<String, CpuSet> e : labels.entrySet()) {
                ObjectNode l = fc.putObject(e.getKey());
                l.put("mask", e.getValue().toList());
                ObjectNode res1 = l.putObject("res");
                for (int cpu : t.online().toArray()) res1.put(Integer.toString(cpu), res[k++]);
            }
        }
        if (calls.contains(Guest.Call.NUMA_LEVELS)) {
            ObjectNode lv = r.putObject("numa_levels");
            int[] d = guest.numaLevels();
            lv.put("levels", d.length);
            ints(lv.putArray("distance"), d);
            ObjectNode masks = lv.putObject("masks");
            for (int node : nodes)
                if (node >= 0) lists(masks.putArray(Integer.toString(node)), guest.numaLevelMasks(node));
        }
        if (calls.contains(Guest.Call.GROUP_CPUS)) {
            ObjectNode g = r.putObject("group_cpus_evenly");
            ObjectNode nm = guest.hasNummasks() ? r.putObject("group_cpus_evenly_nummasks") : null;
            for (int k = 1; k <= n + 2; k++) {
                Optional<List<CpuSet>> groups = guest.groupCpusEvenly(k);
                OptionalInt nummasks = guest.groupCpusNummasks(k);
                if (groups.isEmpty()) g.putNull(Integer.toString(k));
                else lists(g.putArray(Integer.toString(k)), groups.get());
                if (nm != null) {
                    if (nummasks.isPresent()) nm.put(Integer.toString(k), nummasks.getAsInt());
                    else nm.putNull(Integer.toString(k));
                }
            }
        }
        if (calls.contains(Guest.Call.IRQ_AFFINITY_MASKS)) {
            ObjectNode irq = r.putObject("irq_create_affinity_masks");
            for (int pre = 0; pre <= 1; pre++) {
                ObjectNode p = irq.putObject("pre_vectors=" + pre);
                for (int k = 1 + pre; k <= n + 2; k++) {
                    Optional<List<AffinityDesc>> descs = guest.irqCreateAffinityMasks(k, pre, 0, List.of());
                    if (descs.isEmpty()) {
                        p.putNull(Integer.toString(k));
                        continue;
                    }
                    ObjectNode v = p.putObject(Integer.toString(k));
                    ArrayNode masks = v.putArray("masks");
                    ArrayNode managed = v.putArray("managed");
                    for (AffinityDesc a : descs.get()) {
                        masks.add(a.mask().toList());
                        managed.add(a.managed() ? 1 : 0);
                    }
                }
            }
        }
        if (calls.contains(Guest.Call.BLK_MQ_MAP)) {
            ObjectNode mq = r.putObject("blk_mq_map_queues");
            for (int k = 1; k <= n + 2; k++) {
                int[] map = guest.blkMqMapQueues(k, 0);
                ObjectNode q = mq.putObject(Integer.toString(k));
                for (int cpu : t.possible().toArray()) q.put(Integer.toString(cpu), map[cpu]);
            }
        }
        ObjectNode cpus = r.putObject("cpus");
        for (int cpu : t.possible().toArray()) {
            ObjectNode c = cpus.putObject(Integer.toString(cpu));
            boolean on = t.online().contains(cpu);
            c.put("online", on ? 1 : 0);
            c.put("present", t.present().contains(cpu) ? 1 : 0);
            c.put("node", t.nodeOf(cpu));
            String topo = "sys/devices/system/cpu/cpu" + cpu + "/topology/";
            // x86 empties an offline CPU's masks: its topology folder is gone.
            c.put("smt", on ? guest.sysfs(topo + "thread_siblings_list").orElse("").strip() : "");
            c.put("cluster", on ? guest.sysfs(topo + "cluster_cpus_list").orElse("").strip() : "");
        }
        try {
            return m.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The CPU sets {@code find_nth} and {@code find_closest} are asked with, by label, in file order. */
    static Map<String, CpuSet> labels(Topology t) {
        Map<String, CpuSet> l = new LinkedHashMap<>();
        CpuSet online = t.online();
        l.put("online", online);
        for (Node node : t.nodes()) {
            CpuSet own = t.onlineCpusOf(node.id());
            if (own.isEmpty()) continue;
            l.put("node" + node.id(), own);
            l.put("not_node" + node.id(), online.andNot(own));
        }
        int half = t.nrCpuIds() / 2;
        l.put("even", CpuSet.ofStream(online.stream().filter(c -> c % 2 == 0)));
        l.put("odd", CpuSet.ofStream(online.stream().filter(c -> c % 2 == 1)));
        l.put("low_half", CpuSet.ofStream(online.stream().filter(c -> c < half)));
        l.put("high_half", CpuSet.ofStream(online.stream().filter(c -> c >= half)));
        l.put("last_cpu", CpuSet.of(online.last()));
        l.put("empty", CpuSet.EMPTY);
        return l;
    }

    private static void ints(ArrayNode a, int[] values) {
        for (int v : values) a.add(v);
    }

    private static void lists(ArrayNode a, List<CpuSet> sets) {
        for (CpuSet s : sets) a.add(s.toList());
    }
}
