package dev.numaspread.conformance.checks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.conformance.fixtures.KernelRuns;
import dev.numaspread.conformance.fixtures.KernelRuns.Run;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static dev.numaspread.conformance.fixtures.KernelRuns.cpuSets;
import static dev.numaspread.conformance.fixtures.KernelRuns.forEachField;
import static dev.numaspread.conformance.fixtures.KernelRuns.ints;

/**
 * The real kernel runs ({@code fixtures/kernel-runs}: what Debian's 6.1, 6.12 and 7.3 kernels, and
 * any release added there, printed on QEMU machines) replayed against the implementation, exactly,
 * for the series it claims (issue 24): every certificate of a series the runs cover has met the
 * real kernel's own answers on its machines, the largest ones included. One check per result key,
 * under the EXACT rule of its routine (GRP-14 for {@code nummasks}, a count its MUST rule fixes);
 * a series no run covers makes the check not applicable. Fixed examples, not draws: a failure names
 * the run, the call and the machine, and is not shrunk.
 */
public final class KernelRunChecks implements CheckFamily {

    /** The runs of {@code kernel}'s series that printed {@code key}. */
    static List<Run> runsOf(KernelRelease kernel, String key) {
        return KernelRuns.all().stream().filter(r -> r.kernel().equals(kernel) && r.results().has(key)).toList();
    }

    /**
     * A replay: the rule and routine it judges, the key of the runs it reads, the releases where the
     * rule reads that key so (local spread is LS-7's before 6.3 and LS-6's from it; the closest CPU
     * HOP-9's before 6.16 and HOP-10's from it), and how one run's results are judged.
     */
    record Replay(String rule, Routine routine, String name, String key, Predicate<KernelRelease> releases, Judge judge) {
        Check check() {
            return Check.of(rule, routine, name, ctx -> {
                if (ctx.countsDrawsOnly()) throw new NotApplicable("a replay of kernel runs draws nothing");
                List<Run> runs = releases.test(ctx.kernel()) ? runsOf(ctx.kernel(), key) : List.of();
                if (runs.isEmpty()) throw new NotApplicable(nothingToReplay(ctx.kernel()));
                for (Run run : runs) judge.judge(ctx, rule, run, run.results().get(key));
            });
        }

        String nothingToReplay(KernelRelease k) {
            return releases.test(k) ? "no kernel run of " + k + " printed " + key + " (fixtures/kernel-runs)"
                    : rule + " does not read " + key + " of " + k;
        }
    }

    /** One key's results of one run, judged against the implementation; throws the rule's {@link Violation}. */
    interface Judge {
        void judge(CheckContext ctx, String rule, Run run, JsonNode expected);
    }

    static final List<Replay> REPLAYS = List.of(
            new Replay("LS-7", Routine.LOCAL_SPREAD, "LS_7_kernelRunsLocalSpread", "local_spread", k -> k.before(6, 3), KernelRunChecks::localSpread),
            new Replay("LS-6", Routine.LOCAL_SPREAD, "LS_6_kernelRunsLocalSpread", "local_spread", k -> k.atLeast(6, 3), KernelRunChecks::localSpread),
            new Replay("HOP-4", Routine.HOP_MASKS, "HOP_4_kernelRunsHopMasks", "hop_masks", k -> true, KernelRunChecks::hopMasks),
            new Replay("HOP-7", Routine.NUMA_NTH, "HOP_7_kernelRunsNthCpu", "find_nth", k -> true, KernelRunChecks::nth),
            new Replay("HOP-9", Routine.NUMA_CLOSEST, "HOP_9_kernelRunsClosestCpu", "find_closest", k -> k.before(6, 16), KernelRunChecks::closest),
            new Replay("HOP-10", Routine.NUMA_CLOSEST, "HOP_10_kernelRunsClosestCpuInOrder", "find_closest", k -> k.atLeast(6, 16),
                    KernelRunChecks::closestInOrder),
            new Replay("LVL-1", Routine.NUMA_LEVELS, "LVL_1_kernelRunsLevels", "numa_levels", k -> true, KernelRunChecks::levels),
            new Replay("GRP-10", Routine.GROUP_CPUS, "GRP_10_kernelRunsGroups", "group_cpus_evenly", k -> true, KernelRunChecks::groups),
            new Replay("GRP-14", Routine.GROUP_CPUS, "GRP_14_kernelRunsNummasks", "group_cpus_evenly_nummasks", k -> k.atLeast(6, 17),
                    KernelRunChecks::nummasks),
            new Replay("MQ-8", Routine.BLK_MQ_MAP, "MQ_8_kernelRunsQueueMaps", "blk_mq_map_queues", k -> true, KernelRunChecks::queueMaps),
            new Replay("MQ-10", Routine.IRQ_AFFINITY_MASKS, "MQ_10_kernelRunsAffinityMasks", "irq_create_affinity_masks", k -> true,
                    KernelRunChecks::affinityMasks));

    @Override
    public List<Check> checks() {
        return REPLAYS.stream().map(Replay::check).toList();
    }

    /** The result keys the replays read ({@code local_spread}, {@code hop_masks}, ...), ascending. */
    public static SortedSet<String> replayedKeys() {
        return REPLAYS.stream().map(Replay::key).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * True when {@code check} is a replay with nothing to replay for {@code kernel}: no run of that
     * series printed its key. Its "not applicable" there is no fault of the check: the runs cover
     * some series only (a zoo test's reference-model pass accepts it).
     */
    public static boolean replaysNothing(Check check, KernelRelease kernel) {
        return REPLAYS.stream().anyMatch(r -> r.name().equals(check.name()) && (!r.releases().test(kernel) || runsOf(kernel, r.key()).isEmpty()));
    }

    static Violation broken(String rule, Run run, String call, String want, String got) {
        return Violation.of(rule, call + " on kernel run " + run.name(), want, got).on(run.machine())
                .hint("Linux " + run.kernel() + " printed the expected answer on this machine (fixtures/kernel-runs/" + run.name() + ".json)");
    }

    // ---------------------------------------------------------------- the keys (fixtures/kernel-runs/README.md)

    static void localSpread(CheckContext ctx, String rule, Run run, JsonNode expected) {
        forEachField(expected, (node, cpus) -> {
            int[] want = ints(cpus);
            String got = outcome(() -> Arrays.toString(ctx.implementation().localSpreadCpus(ctx.kernel(), run.machine(),
                    Integer.parseInt(node), want.length)));
            if (!Arrays.toString(want).equals(got))
                throw broken(rule, run, "localSpreadCpus(node=" + node + ", count=" + want.length + ")", Arrays.toString(want), got);
        });
    }

    static void hopMasks(CheckContext ctx, String rule, Run run, JsonNode expected) {
        forEachField(expected, (node, masks) -> {
            String want = CpuSet.toText(cpuSets(masks));
            String got = outcome(() -> CpuSet.toText(ctx.implementation().hopMasks(ctx.kernel(), run.machine(), Integer.parseInt(node))));
            if (!want.equals(got)) throw broken(rule, run, "hopMasks(node=" + node + ")", want, got);
        });
    }

    static void nth(CheckContext ctx, String rule, Run run, JsonNode expected) {
        Topology m = run.machine();
        forEachField(expected, (label, entry) -> {
            CpuSet cpus = CpuSet.parseList(entry.get("mask").asText());
            forEachField(entry.get("by_node"), (node, results) -> {
                for (int i = 0; i < results.size(); i++) {
                    int n = i;
                    String want = cpuOrNone(m, results.get(i).asInt());
                    String got = outcome(() -> cpuOrNone(m, ctx.implementation().numaNth(ctx.kernel(), m, cpus, n, Integer.parseInt(node))));
                    if (!want.equals(got))
                        throw broken(rule, run, "numaNth(cpus=" + cpus.toList() + " (" + label + "), n=" + n + ", node=" + node + ")", want, got);
                }
            });
        });
    }

    static void closest(CheckContext ctx, String rule, Run run, JsonNode expected) {
        Topology m = run.machine();
        forEachField(expected, (label, entry) -> {
            CpuSet cpus = CpuSet.parseList(entry.get("mask").asText());
            forEachField(entry.get("res"), (cpu, result) -> {
                String want = cpuOrNone(m, result.asInt());
                String got = outcome(() -> cpuOrNone(m, ctx.implementation().numaClosest(ctx.kernel(), m, cpus, Integer.parseInt(cpu))));
                if (!want.equals(got)) throw broken(rule, run, "numaClosest(cpus=" + cpus.toList() + " (" + label + "), cpu=" + cpu + ")", want, got);
            });
        });
    }

    /**
     * From 6.16 the answers depend on the calling CPU's state (HOP-10): the run made its calls in
     * file order (labels in order, {@code cpu} ascending) on one CPU from a state it did not print,
     * so some starting state must reproduce every answer in order.
     */
    static void closestInOrder(CheckContext ctx, String rule, Run run, JsonNode expected) {
        Topology m = run.machine();
        List<NumaClosest.Call> calls = new ArrayList<>();
        List<Integer> answers = new ArrayList<>();
        forEachField(expected, (label, entry) -> {
            CpuSet cpus = CpuSet.parseList(entry.get("mask").asText());
            TreeMap<Integer, Integer> byCpu = new TreeMap<>();
            forEachField(entry.get("res"), (cpu, result) -> byCpu.put(Integer.parseInt(cpu), result.asInt()));
            byCpu.forEach((cpu, result) -> {
                calls.add(new NumaClosest.Call(cpus, cpu));
                answers.add(Math.min(result, m.nrCpuIds()));
            });
        });
        int[] want = answers.stream().mapToInt(Integer::intValue).toArray();
        String firstMiss = null;
        for (int prev = 0; prev < m.nrCpuIds(); prev++) {
            int[] got = ctx.implementation().numaClosestCalls(ctx.kernel(), m, m.online().first(), prev, calls);
            for (int i = 0; i < got.length; i++) got[i] = Math.min(got[i], m.nrCpuIds());
            if (Arrays.equals(want, got)) return;
            if (firstMiss == null) firstMiss = Arrays.toString(got) + " from state 0";
        }
        throw broken(rule, run, "numaClosestCalls(" + calls.size() + " calls in the run's order, every starting state)",
                "answers " + Arrays.toString(want) + " from some starting state", firstMiss + " and no state gives the run's answers");
    }

    static void levels(CheckContext ctx, String rule, Run run, JsonNode expected) {
        String want = Arrays.toString(ints(expected.get("distance")));
        String got = outcome(() -> Arrays.toString(ctx.implementation().numaLevels(ctx.kernel(), run.machine())));
        if (!want.equals(got)) throw broken(rule, run, "numaLevels()", want, got);
    }

    static void groups(CheckContext ctx, String rule, Run run, JsonNode expected) {
        forEachField(expected, (numgrps, groups) -> {
            String want = CpuSet.toText(cpuSets(groups));
            String got = outcome(() -> ctx.implementation().groupCpusEvenly(ctx.kernel(), run.machine(), Integer.parseInt(numgrps))
                    .map(CpuSet::toText).orElse("NULL"));
            if (!want.equals(got)) throw broken(rule, run, "groupCpusEvenly(numgrps=" + numgrps + ")", want, got);
        });
    }

    static void nummasks(CheckContext ctx, String rule, Run run, JsonNode expected) {
        forEachField(expected, (numgrps, nummasks) -> {
            String want = "nummasks " + nummasks.asInt();
            String got = outcome(() -> {
                OptionalInt n = ctx.implementation().groupCpusEvenlyNummasks(ctx.kernel(), run.machine(), Integer.parseInt(numgrps));
                return n.isPresent() ? "nummasks " + n.getAsInt() : "NULL";
            });
            if (!want.equals(got)) throw broken(rule, run, "groupCpusEvenlyNummasks(numgrps=" + numgrps + ")", want, got);
        });
    }

    static void queueMaps(CheckContext ctx, String rule, Run run, JsonNode expected) {
        Topology m = run.machine();
        forEachField(expected, (queues, map) -> {
            int[] want = new int[m.nrCpuIds()];
            Arrays.fill(want, -1);
            forEachField(map, (cpu, queue) -> want[Integer.parseInt(cpu)] = queue.asInt());
            String got = outcome(() -> BlkMqChecks.show(m, ctx.implementation().blkMqMapQueues(ctx.kernel(), m, Integer.parseInt(queues), 0)));
            if (!BlkMqChecks.show(m, want).equals(got))
                throw broken(rule, run, "blkMqMapQueues(nrQueues=" + queues + ", queueOffset=0)", BlkMqChecks.show(m, want), got);
        });
    }

    static void affinityMasks(CheckContext ctx, String rule, Run run, JsonNode expected) {
        forEachField(expected, (pre, byCount) -> {
            int preVectors = Integer.parseInt(pre.substring(pre.indexOf('=') + 1));
            forEachField(byCount, (nvecs, entry) -> {
                List<IrqAffinity.AffinityDesc> want = new ArrayList<>();
                for (int v = 0; v < entry.get("masks").size(); v++)
                    want.add(new IrqAffinity.AffinityDesc(CpuSet.parseList(entry.get("masks").get(v).asText()),
                            entry.get("managed").get(v).asInt() == 1));
                BlkMqChecks.IrqOutcome wanted = new BlkMqChecks.IrqOutcome(Optional.of(want), false);
                BlkMqChecks.IrqOutcome got = BlkMqChecks.IrqOutcome.of(() -> ctx.implementation().irqCreateAffinityMasks(ctx.kernel(),
                        run.machine(), Integer.parseInt(nvecs), preVectors, 0, List.of()));
                if (!wanted.equals(got))
                    throw broken(rule, run, "irqCreateAffinityMasks(nvecs=" + nvecs + ", pre=" + preVectors + ", post=0, sets=[])",
                            wanted.text(), got.text());
            });
        });
    }

    // ---------------------------------------------------------------- answers as text

    interface Answer {
        String get();
    }

    /** The answer's text, or "kernel crash": the real kernel printed an answer, so a crash is a wrong one. */
    static String outcome(Answer a) {
        try {
            return a.get();
        } catch (KernelBug bug) {
            return "kernel crash (" + bug.kind() + ")";
        }
    }

    static String cpuOrNone(Topology m, int v) {
        return v >= m.nrCpuIds() ? "none (>= nr_cpu_ids)" : "cpu " + v;
    }
}
