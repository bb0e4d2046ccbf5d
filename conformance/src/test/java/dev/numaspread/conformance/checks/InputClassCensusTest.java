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
 * them in at least 5 % of the rule's default tries, in every release where the rule's range
 * starts or ends ({@code KernelRange.ends()}), and a class of SNC machines in every release from
 * 6.19 in its range (before 6.19 an SNC machine is a machine like any other, and its class is not
 * judged there). Counted by {@link Census} over the tries the
 * checks make, as the certifier makes them; a class named by no rule, or a rule declaring
 * classes its checks never draw, fails too. Prints the table and leaves it in
 * {@code target/input-classes.txt}.
 */
class InputClassCensusTest {

    static final double MINIMUM_SHARE = 0.05;

    /** The classes of SNC machines, whose scheduler's distance differs from the table from 6.19 (LVL-6, LVL-8). */
    static final java.util.Set<InputClass> SNC = java.util.EnumSet.of(InputClass.SNC2_MACHINE, InputClass.SNC3_MACHINE);

    /**
     * The releases a rule's census runs in: where its range starts or ends and, for a rule naming
     * an SNC class, every modelled release from 6.19 in its range (issue 24: a claim of 7.1 must meet
     * SNC machines as a claim of 7.3 does).
     */
    static List<KernelRelease> releases(Rule rule) {
        java.util.TreeSet<KernelRelease> out = new java.util.TreeSet<>(rule.kernels().ends());
        if (rule.classes().stream().anyMatch(id -> InputClass.byId(id).map(SNC::contains).orElse(false)))
            for (KernelRelease k : KernelRelease.modelledReleases())
                if (k.atLeast(6, 19) && rule.appliesTo(k)) out.add(k);
        return List.copyOf(out);
    }

    static RuleRegistry registry;
    /** rule -> release -> tally of its checks, counted once for the tests below. */
    static Map<String, Map<KernelRelease, Census.Tally>> census;
    /** rule -> the routines of its checks that drew inputs. */
    static Map<String, Set<Routine>> drawnRoutines;

    @BeforeAll
    static void count() {
        registry = RuleRegistry.load();
        Settings settings = Settings.defaults();
        census = new TreeMap<>();
        drawnRoutines = new TreeMap<>();
        for (Check check : AllChecks.all()) {
            Optional<Rule> rule = registry.byId(check.rule());
            if (rule.isEmpty()) continue;   // the coverage gate reports checks of unknown rules
            for (KernelRelease k : releases(rule.get())) {
                Census.Tally t = Census.of(check, k, settings);
                census.computeIfAbsent(check.rule(), r -> new TreeMap<>()).merge(k, t, Census.Tally::plus);
                if (t.tries() > 0) drawnRoutines.computeIfAbsent(check.rule(), r -> EnumSet.noneOf(Routine.class)).add(check.routine());
            }
        }
    }

    /**
     * The routines that read the scheduler's distance, which from 6.19 differs from the table on
     * SNC machines (LVL-6, LVL-8): the sched-domain levels and hop masks, the n-th and closest CPU,
     * local spread on rings (6.3+), and what walks hop masks or rings (mana's irq_setup(), mlx5's
     * completion vectors).
     */
    static final Set<Routine> READ_SCHED_DISTANCE = EnumSet.of(Routine.NUMA_LEVELS, Routine.HOP_MASKS, Routine.NUMA_NTH,
            Routine.NUMA_CLOSEST, Routine.LOCAL_SPREAD, Routine.IRQ_SETUP, Routine.MANA_SETUP_IRQS, Routine.MLX5_COMP_IRQS);

    /** The grouping's routines whose MUST rules a cluster across two nodes can break (issue 24, gap 4). */
    static final Set<Routine> GROUPING = EnumSet.of(Routine.GROUP_CPUS, Routine.BLK_MQ_MAP, Routine.IRQ_AFFINITY_MASKS);

    /**
     * Issue 24's classes are declared wherever they apply, so the 5 % floor of
     * {@link #RULE_6_everyRuleDrawsItsDeclaredClasses} holds them there and a generator change that
     * stops drawing them fails the build: every rule whose checks draw declares
     * {@code cpu-ids-past-63} and {@code possible-ids-with-holes}; every MUST rule of the grouping's
     * routines {@code cluster-across-nodes}; every rule of irq-affinity-masks
     * {@code set-larger-than-cpus}; and every routine that reads the scheduler's distance has, in each
     * release from 6.19 in its range, a rule declaring {@code snc2-machine} and {@code snc3-machine}.
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
            for (Map.Entry<KernelRelease, Census.Tally> e : byKernel.entrySet()) {
                Census.Tally t = e.getValue();
                if (t.tries() == 0) continue;
                int defaultTries = t.defaultTries();
                StringBuilder row = new StringBuilder(String.format("%-7s %-5s %4d tries:", rule.id(), e.getKey(), defaultTries));
                for (String id : rule.classes()) {
                    InputClass c = InputClass.byId(id).orElseThrow();
                    if (SNC.contains(c) && e.getKey().before(6, 19)) continue;   // the same machines as any other before 6.19
                    double share = (double) t.hits().getOrDefault(c, 0) / defaultTries;
                    row.append(String.format(" %s %.0f%%%s", id, 100 * share, share < MINIMUM_SHARE ? "*" : ""));
                    if (share < MINIMUM_SHARE)
                        problems.add(String.format("%s: %s declares %s, drawn in %.1f %% of its %d tries in %s; expected at least %.0f %%",
                                rule.location(), rule.id(), id, 100 * share, defaultTries, e.getKey(), 100 * MINIMUM_SHARE));
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
        Path out = Path.of("target", "input-classes.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table);
        System.out.print(table);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }
}
