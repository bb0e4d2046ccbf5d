package dev.numaspread.conformance.report;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.conformance.certify.Counterexample;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.certify.Workload;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.model.input.Printable;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The certificate as the console prints it (README, "Certify your own implementation"): one line per rule, and for a failure or
 * an error a block with the rule's spec line, the call, the expected and the actual answer, the
 * hint, the seed, the shrunk machine as {@code .topo} and the command that replays it.
 */
public final class ConsoleCertificate {
    private ConsoleCertificate() {}

    static final String INDENT = "            ";

    /** The certificate with its NOT-CLAIMED rules folded into one line when there are several (see {@link #render(Certificate, boolean)}). */
    public static String render(Certificate c) {
        return render(c, false);
    }

    /**
     * The certificate; {@code listNotClaimed} prints a line per NOT-CLAIMED rule, otherwise two or
     * more of them fold into one line with their count and routines, as report.html folds them
     * (a third party claiming one routine would read some eighty lines after its verdicts).
     */
    public static String render(Certificate c, boolean listNotClaimed) {
        StringBuilder sb = new StringBuilder();
        sb.append("numaspread certify: implementation \"").append(Printable.of(c.implementation())).append("\" (")
                .append(Printable.of(c.implSpec())).append("), claims ")
                .append(c.claims().isEmpty() ? "none" : c.claims().stream().map(Claim::toString).collect(Collectors.joining(", ")))
                .append("; kit ").append(c.suiteVersion()).append("; ").append(runShape(c.settings())).append('\n');
        List<RuleResult> notClaimed = c.results().stream().filter(r -> r.verdict() instanceof Verdict.NotClaimed).toList();
        boolean fold = !listNotClaimed && notClaimed.size() > 1;
        for (RuleResult r : c.results()) if (!(fold && r.verdict() instanceof Verdict.NotClaimed)) sb.append(render(c, r));
        if (fold) {
            Set<String> routines = new LinkedHashSet<>();
            for (RuleResult r : notClaimed) routines.add(((Verdict.NotClaimed) r.verdict()).routine());
            sb.append("NOT-CLAIMED ").append(notClaimed.size()).append(" rules of ").append(routines.size() == 1 ? "routine " : "routines ")
                    .append(Printable.of(String.join(", ", routines))).append(", not claimed (--list-not-claimed lists them)\n");
        }
        for (String n : c.notes()) sb.append("note: ").append(Printable.of(n)).append('\n');
        if (!c.workload().equals(Workload.NONE)) sb.append("workload: ").append(c.workload().text()).append('\n');
        sb.append(summary(c)).append('\n');
        return sb.toString();
    }

    /**
     * How the properties ran: {@code tries 200}, or {@code exhaustive 3 (every machine of at most 3
     * CPUs)}, then {@code ; shard 2/8} for a share of a split run.
     */
    public static String runShape(dev.numaspread.conformance.checks.Settings s) {
        String shape = s.isExhaustive() ? "exhaustive " + s.exhaustive() + " (every machine of at most " + s.exhaustive() + " CPU"
                + (s.exhaustive() == 1 ? "" : "s") + ")" : "tries " + s.tries();
        return shape + (s.shard().isWhole() ? "" : "; shard " + s.shard());
    }

    /**
     * {@code  on 7 machines} for a rule judged on a pool of machines (a booted kernel's: the most
     * any of its checks judged on), {@code , 1234 cases on 56 machines} for a rule whose small-scope walks ended, or in a shard
     * {@code , 617 cases of a walk over 56 machines} (each shard walks them all and runs its share
     * of the cases); empty otherwise.
     */
    public static String covered(Certificate c, RuleResult r) {
        // Random tries on a pool of machines (a booted kernel's): how many of them the tries judged on.
        if (r.cases() == 0 && r.machines() > 0) return " on " + r.machines() + " machine" + (r.machines() == 1 ? "" : "s");
        if (r.cases() == 0) return "";
        return ", " + r.cases() + " case" + (r.cases() == 1 ? "" : "s") + (c.settings().shard().isWhole() ? " on " : " of a walk over ")
                + r.machines() + " machine" + (r.machines() == 1 ? "" : "s");
    }

    /** {@code 12 PASS, 1 FAIL, 3 NOT-CLAIMED; level reached: contract; exit 1}. */
    public static String summary(Certificate c) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Integer> e : c.counts().entrySet()) {
            if (e.getValue() == 0) continue;
            sb.append(sb.length() == 0 ? "" : ", ").append(e.getValue()).append(' ').append(e.getKey());
        }
        if (sb.length() == 0) sb.append("no rule judged");
        return sb.append("; level reached: ").append(c.levelReached()).append("; exit ").append(c.exitCode()).toString();
    }

    /** The line (and block) of one result. */
    public static String render(Certificate c, RuleResult r) {
        StringBuilder sb = new StringBuilder();
        Verdict v = r.verdict();
        // A merged shard's rule, title and level come from a file: printable, as every text from outside (FMT-19).
        sb.append(v.label()).append(' ').append(Printable.of(r.rule()));
        if (!r.title().isEmpty()) sb.append(' ').append(Printable.of(r.title()));
        sb.append(" (").append(Printable.of(r.level()));
        r.kernel().ifPresent(k -> sb.append("; kernel ").append(k));
        if (v instanceof Verdict.Fail || v instanceof Verdict.Error || v instanceof Verdict.Waived)
            sb.append("; implementation \"").append(Printable.of(c.implementation())).append('"');
        sb.append(')');
        String seed = "0x" + Long.toHexString(c.settings().seed());
        if (v instanceof Verdict.Pass p) {
            sb.append(" tries ").append(p.tries());
            if (r.judged() < p.tries()) sb.append(" (").append(r.judged()).append(" judged)");
            sb.append(covered(c, r));
            sb.append(" seed ").append(seed).append('\n');
            explored(sb, r);
        } else if (v instanceof Verdict.NotClaimed n) {
            sb.append(" routine ").append(n.routine()).append(" not claimed")
                    .append(n.reason().isEmpty() ? "" : ": " + Printable.of(n.reason())).append('\n');
        } else if (v instanceof Verdict.NotVerified nv) {
            sb.append('\n');
            line(sb, "reason", nv.reason());
            if (!r.replay().isEmpty()) line(sb, "replay", r.replay());
        } else if (v instanceof Verdict.InternalError ie) {
            sb.append('\n');
            line(sb, "from", ie.source());
            line(sb, "reason", ie.reason());
            line(sb, "seed", seed);
            if (!r.replay().isEmpty()) line(sb, "replay", r.replay());
        } else if (v instanceof Verdict.UnexpectedPass u) {
            sb.append(" tries ").append(u.tries()).append(" seed ").append(seed).append('\n');
            explored(sb, r);
            line(sb, "waiver", u.waiver().location() + " (until " + u.waiver().expires() + "): " + u.waiver().reason());
            line(sb, "hint", "the rule passes now: remove the waiver");
        } else {
            sb.append('\n');
            Verdict shown = v;
            if (v instanceof Verdict.Waived w) {
                line(sb, "waiver", w.waiver().location() + " (until " + w.waiver().expires() + "): " + w.waiver().reason());
                shown = w.underlying();
            }
            if (!r.location().isEmpty()) line(sb, "rule", r.location());
            if (shown instanceof Verdict.Fail f) {
                Counterexample x = f.counterexample();
                if (!x.says().isEmpty()) line(sb, "says", "\"" + x.says() + "\"");
                line(sb, "from", f.source());
                line(sb, "call", x.call());
                line(sb, "expected", x.expected());
                line(sb, "actual", x.actual());
                if (!x.hint().isEmpty()) line(sb, "hint", x.hint());
                if (x.machine().isPresent()) {
                    line(sb, "seed", seed + "; shrunk machine (paste into fixtures/topologies/):");
                    for (String m : x.machine().get().strip().split("\n")) sb.append(INDENT).append(Printable.of(m)).append('\n');
                } else line(sb, "seed", seed);
            } else if (shown instanceof Verdict.Error e) {
                line(sb, "from", e.source());
                line(sb, "reason", e.reason());
                line(sb, "seed", seed);
            }
            explored(sb, r);
            line(sb, "replay", r.replay());
        }
        return sb.toString();
    }

    // The interleavings of a hotplug rule, as jcstress prints a test's results: per table, the count of each outcome.
    private static void explored(StringBuilder sb, RuleResult r) {
        for (GradedRuns g : r.graded()) line(sb, "explored", g.render());
    }

    /** A key and its value, the value made printable (FMT-19): it may come from the implementation under test. */
    private static void line(StringBuilder sb, String key, String value) {
        String[] lines = Printable.ofLines(value.strip()).split("\n");
        sb.append("  ").append(key);
        for (int k = key.length(); k < 10; k++) sb.append(' ');
        sb.append(lines[0]).append('\n');
        for (int i = 1; i < lines.length; i++) sb.append(INDENT).append(lines[i]).append('\n');
    }
}
