package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.rules.Rule;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.topogen.InputClass;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.conformance.rules.Level;
import dev.numaspread.conformance.spi.Routine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RULE-6: every rule whose checks draw inputs declares the input classes that tell
 * implementations apart ({@code classes:} under its level line), and the checks draw each of
 * them in at least 5 % of the rule's default tries, in every release the rule can be claimed for
 * (a class of SNC machines in every such release from 6.19: before 6.19 an SNC machine is a machine
 * like any other, and its class is not judged there). Counted by {@link Census} over the tries the
 * checks make, as the certifier makes them; a class named by no rule, or a rule declaring
 * classes its checks never draw, fails too. Prints the table and leaves it in
 * {@code target/input-classes.txt}.
 *
 * <p>Every release, without running every check in every release: a check runs in the first
 * release of its rule's range not counted yet, with the release watched ({@link Census#read},
 * {@code KernelRelease.Watch}), and its tally is that of every release the run could not tell from
 * its own. The check, its generators and the reference model read the release only by comparing it
 * with others (6.19 or later? 6.18 alone?), and the run is deterministic (one seed), so a release
 * that answers every comparison the run made alike takes the same path: the same draws, calls and
 * answers, the same tally. A run that read more (the release's text or numbers) stands for its own
 * release alone. So a check runs once per stretch of releases in which nothing it reads changes
 * (local spread's: 4.1-5.9, 5.10-6.2, ... 7.0-7.3), not once per release.
 */
class InputClassCensusTest {

    static final double MINIMUM_SHARE = 0.05;

    /** The classes of SNC machines, whose scheduler's distance differs from the table from 6.19 (LVL-6, LVL-8). */
    static final java.util.Set<InputClass> SNC = java.util.EnumSet.of(InputClass.SNC2_MACHINE, InputClass.SNC3_MACHINE);

    /**
     * A class a rule declares but cannot judge in some releases, where it is not counted: there the
     * kernel fails on every input of the class, the rule's checks leave those inputs to the rule that
     * judges the failure ({@code why}), and no draw could change that. Each must still be needed: an
     * entry under which the class is drawn after all fails the test.
     */
    record NotJudged(String rule, InputClass inputClass, KernelRelease from, KernelRelease to, String why) {
        boolean covers(Rule r, InputClass c, List<KernelRelease> stretch) {
            return r.id().equals(rule) && c == inputClass && stretch.stream().allMatch(k -> k.between(from, to));
        }
    }

    static final List<NotJudged> NOT_JUDGED = List.of(
            new NotJudged("LS-1", InputClass.CPULESS_DEVICE_NODE, KernelRelease.of(6, 3), KernelRelease.of(6, 4),
                    "6.3 and 6.4 oops on a CPU-less device node (LS-9)"),
            new NotJudged("LS-5", InputClass.CPULESS_DEVICE_NODE, KernelRelease.of(6, 3), KernelRelease.of(6, 4),
                    "6.3 and 6.4 oops on a CPU-less device node (LS-9)"));

    static RuleRegistry registry;
    /** rule -> release -> tally of its checks, counted once for the tests below. */
    static Map<String, Map<KernelRelease, Census.Tally>> census;
    /** rule -> the routines of its checks that drew inputs. */
    static Map<String, Set<Routine>> drawnRoutines;
    /** How many times a check ran, and for how many pairs of a check and a release its rule applies to. */
    static int runs, pairs;
    /** The CPU time of the census on its thread. */
    static double cpuSeconds;

    @BeforeAll
    static void count() {
        long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        registry = RuleRegistry.load();
        Settings settings = Settings.defaults();
        census = new TreeMap<>();
        drawnRoutines = new TreeMap<>();
        for (Check check : AllChecks.all()) {
            Optional<Rule> rule = registry.byId(check.rule());
            if (rule.isEmpty()) continue;   // the coverage gate reports checks of unknown rules
            Set<InputClass> counted = counted(rule.get());
            List<KernelRelease> left = new ArrayList<>(KernelRelease.modelledReleases().stream().filter(rule.get()::appliesTo).toList());
            pairs += left.size();
            while (!left.isEmpty()) {
                Census.Reading reading = Census.read(check, left.get(0), settings, counted);
                runs++;
                Census.Tally t = reading.tally();
                for (KernelRelease k : left)
                    if (reading.standsFor().test(k))
                        census.computeIfAbsent(check.rule(), r -> new TreeMap<>()).merge(k, t, Census.Tally::plus);
                if (t.tries() > 0) drawnRoutines.computeIfAbsent(check.rule(), r -> EnumSet.noneOf(Routine.class)).add(check.routine());
                int before = left.size();
                left.removeIf(reading.standsFor());
                assertTrue(left.size() < before, check.name() + "'s run in " + t.kernel() + " stands for no release");
            }
        }
        cpuSeconds = (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu) / 1e9;
    }

    /** The classes a rule's census counts: those it declares, or every class when it declares none (the table then shows what is drawn). */
    static Set<InputClass> counted(Rule rule) {
        if (rule.classes().isEmpty()) return EnumSet.allOf(InputClass.class);
        EnumSet<InputClass> out = EnumSet.noneOf(InputClass.class);
        for (String id : rule.classes()) InputClass.byId(id).ifPresent(out::add);
        return out;
    }

    /**
     * The routines that read the scheduler's distance, which from 6.19 differs from the table on
     * SNC machines (LVL-6, LVL-8): the sched-domain levels and hop masks, the n-th and closest CPU,
     * local spread on rings (6.3+), and what walks hop masks or rings (mana's irq_setup(), mlx5's
     * completion vectors).
     */
    static final Set<Routine> READ_SCHED_DISTANCE = EnumSet.of(Routine.NUMA_LEVELS, Routine.HOP_MASKS, Routine.NUMA_NTH,
            Routine.NUMA_CLOSEST, Routine.LOCAL_SPREAD, Routine.IRQ_SETUP, Routine.MANA_SETUP_IRQS, Routine.MLX5_COMP_IRQS,
            Routine.ICE_IRQS, Routine.BNXT_IRQS);

    /**
     * Rules that meet SNC machines themselves, not only through another rule of their routine:
     * their checks judge an answer the scheduler's distance shapes from 6.19. The NIC drivers that
     * spread from a node (ice's NIC-8, bnxt's NIC-10 and NIC-11), MANA's plans (SIB-10, SIB-12,
     * SIB-13) and irq_setup()'s hops (SIB-2, SIB-3, SIB-4, SIB-5), and the hop masks' own contract
     * (HOP-1, HOP-2, besides HOP-4's exact masks).
     */
    static final Set<String> SNC_RULES = Set.of("HOP-1", "HOP-2", "HOP-4", "NIC-8", "NIC-10", "NIC-11", "SIB-2", "SIB-3", "SIB-4", "SIB-5",
            "SIB-10", "SIB-12", "SIB-13");

    /** The grouping's routines whose MUST rules a cluster across two nodes can break (issue 24, gap 4). */
    static final Set<Routine> GROUPING = EnumSet.of(Routine.GROUP_CPUS, Routine.BLK_MQ_MAP, Routine.IRQ_AFFINITY_MASKS);

    /**
     * Issue 24's classes are declared wherever they apply, so the 5 % floor of
     * {@link #RULE_6_everyRuleDrawsItsDeclaredClasses} holds them there and a generator change that
     * stops drawing them fails the build: every rule whose checks draw declares
     * {@code cpu-ids-past-63} and {@code possible-ids-with-holes}; every MUST rule of the grouping's
     * routines {@code cluster-across-nodes}; every rule of irq-affinity-masks
     * {@code set-larger-than-cpus}; every routine that reads the scheduler's distance has, in each
     * release from 6.19 in its range, a rule declaring {@code snc2-machine} and {@code snc3-machine},
     * and so does each rule of {@link #SNC_RULES}.
     */
    @Test
    void issue24ClassesAreDeclaredWhereTheyApply() {
        List<String> problems = new ArrayList<>();
        for (Rule rule : registry.rules()) {
            Set<Routine> routines = drawnRoutines.getOrDefault(rule.id(), Set.of());
            if (routines.isEmpty()) continue;
            List<String> want = new ArrayList<>(List.of(InputClass.CPU_IDS_PAST_63.id(), InputClass.POSSIBLE_IDS_WITH_HOLES.id()));
            if (rule.level() == Level.MUST && routines.stream().anyMatch(GROUPING::contains)) want.add(InputClass.CLUSTER_ACROSS_NODES.id());
            if (routines.contains(Routine.IRQ_AFFINITY_MASKS)) want.add(InputClass.SET_LARGER_THAN_CPUS.id());
            for (String id : want)
                if (!rule.classes().contains(id))
                    problems.add(rule.location() + ": " + rule.id() + " (" + routines + ") declares " + rule.classes() + "; expected " + id + " among them (issue 24)");
        }
        for (Routine routine : READ_SCHED_DISTANCE)
            for (KernelRelease k : KernelRelease.modelledReleases()) {
                if (!k.atLeast(6, 19)) continue;
                List<Rule> drawing = registry.rules().stream().filter(r -> r.appliesTo(k)
                        && drawnRoutines.getOrDefault(r.id(), Set.of()).contains(routine)).toList();
                if (drawing.isEmpty()) continue;
                boolean snc = drawing.stream().anyMatch(r -> r.classes().containsAll(List.of(InputClass.SNC2_MACHINE.id(), InputClass.SNC3_MACHINE.id())));
                if (!snc)
                    problems.add(routine.id() + " reads the scheduler's distance, but none of its rules in " + k + " ("
                            + drawing.stream().map(Rule::id).toList() + ") declares snc2-machine and snc3-machine (issue 24)");
            }
        for (String id : SNC_RULES) {
            Rule rule = registry.byId(id).orElseThrow();
            if (!rule.classes().containsAll(List.of(InputClass.SNC2_MACHINE.id(), InputClass.SNC3_MACHINE.id())))
                problems.add(rule.location() + ": " + id + " declares " + rule.classes() + "; expected snc2-machine and snc3-machine among them"
                        + " (its checks judge an answer the scheduler's distance shapes from 6.19)");
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    @Proves("RULE-6")
    void RULE_6_everyRuleDrawsItsDeclaredClasses() throws Exception {
        List<String> problems = new ArrayList<>();
        StringBuilder table = new StringBuilder("input classes drawn per rule (share of the default tries of its checks; * below 5 %)\n");
        for (Rule rule : registry.rules()) {
            Map<KernelRelease, Census.Tally> byKernel = census.getOrDefault(rule.id(), Map.of());
            boolean draws = byKernel.values().stream().anyMatch(t -> t.tries() > 0);
            if (!draws) {
                if (!rule.classes().isEmpty())
                    problems.add(rule.location() + ": " + rule.id() + " declares classes " + rule.classes()
                            + ", but no check of it draws inputs; expected no classes line (RULE-6)");
                continue;
            }
            if (rule.classes().isEmpty()) {
                problems.add(rule.location() + ": " + rule.id() + " has checks that draw inputs and declares no input classes;"
                        + " expected a line \"classes: ...\" after its level line naming the classes that tell implementations"
                        + " apart (spec/rules.md RULE-6; the table below shows what its checks draw)");
            }
            for (List<KernelRelease> stretch : stretches(rule, byKernel)) {
                KernelRelease first = stretch.get(0);
                String releases = first + (stretch.size() == 1 ? "" : "-" + stretch.get(stretch.size() - 1));
                Census.Tally t = byKernel.get(first);
                if (t.tries() == 0) continue;
                int defaultTries = t.defaultTries();
                StringBuilder row = new StringBuilder(String.format("%-7s %-9s %4d tries:", rule.id(), releases, defaultTries));
                for (String id : rule.classes()) {
                    InputClass c = InputClass.byId(id).orElseThrow();
                    if (SNC.contains(c) && first.before(6, 19)) continue;   // the same machines as any other before 6.19
                    double share = (double) t.hits().getOrDefault(c, 0) / defaultTries;
                    Optional<NotJudged> notJudged = NOT_JUDGED.stream().filter(n -> n.covers(rule, c, stretch)).findFirst();
                    if (notJudged.isPresent()) {
                        row.append(String.format(" %s %.0f%% (not judged: %s)", id, 100 * share, notJudged.get().why()));
                        if (share >= MINIMUM_SHARE)
                            problems.add(String.format("%s: %s draws %s in %.1f %% of its tries in %s, which NOT_JUDGED says it cannot; expected the entry removed",
                                    rule.location(), rule.id(), id, 100 * share, releases));
                        continue;
                    }
                    row.append(String.format(" %s %.0f%%%s", id, 100 * share, share < MINIMUM_SHARE ? "*" : ""));
                    if (share < MINIMUM_SHARE)
                        problems.add(String.format("%s: %s declares %s, drawn in %.1f %% of its %d tries in %s; expected at least %.0f %%",
                                rule.location(), rule.id(), id, 100 * share, defaultTries, releases, 100 * MINIMUM_SHARE));
                }
                if (rule.classes().isEmpty()) {
                    row.append(" (none declared; drawn:");
                    for (InputClass c : InputClass.values())
                        if (t.hits().getOrDefault(c, 0) > 0) row.append(String.format(" %s %.0f%%", c.id(), 100.0 * t.hits().get(c) / defaultTries));
                    row.append(')');
                }
                table.append(row).append('\n');
            }
        }
        table.append(String.format("every release a rule applies to: %d pairs of a check and a release, counted by %d runs of checks"
                + " in %.1f s of CPU%n", pairs, runs, cpuSeconds));
        Path out = Path.of("target", "input-classes.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table);
        System.out.print(table);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /**
     * The releases of {@code byKernel} in order, in stretches of releases with the same tally (the
     * table's rows), split at 6.19, from where the SNC classes are judged.
     */
    static List<List<KernelRelease>> stretches(Rule rule, Map<KernelRelease, Census.Tally> byKernel) {
        List<List<KernelRelease>> out = new ArrayList<>();
        List<KernelRelease> current = null;
        Census.Tally last = null;
        for (KernelRelease k : KernelRelease.modelledReleases()) {
            Census.Tally t = byKernel.get(k);
            boolean same = t != null && last != null && current != null && k.atLeast(6, 19) == current.get(0).atLeast(6, 19)
                    && t.tries() == last.tries() && t.defaultTries() == last.defaultTries() && t.hits().equals(last.hits());
            if (t == null) {
                current = null;
            } else if (same) {
                current.add(k);
            } else {
                current = new ArrayList<>(List.of(k));
                out.add(current);
            }
            last = t;
        }
        return out;
    }
}
