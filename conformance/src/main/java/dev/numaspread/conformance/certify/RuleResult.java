package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The verdict on one rule for one claimed release (no release for NOT-CLAIMED), with the evidence
 * behind it and the command that replays it.
 *
 * @param level    {@code MUST}, {@code EXACT} or {@code SHOULD}; {@code MUST} for a rule the spec does not list
 * @param location {@code spec/local-spread.md:41}, or empty when the spec does not list the rule
 */
public record RuleResult(String rule, String title, String level, String location, Optional<KernelRelease> kernel,
                         Verdict verdict, List<Evidence> evidence, String replay) {

    public RuleResult {
        evidence = List.copyOf(evidence);
    }

    /** True for the verdicts that keep the exit code at 0. */
    public boolean isAccepted() {
        return verdict instanceof Verdict.Pass || verdict instanceof Verdict.Waived || verdict instanceof Verdict.NotClaimed;
    }

    /** Tries behind the verdict: property tries plus scenarios. */
    public int tries() {
        return evidence.stream().mapToInt(Evidence::tries).sum();
    }

    /** The interleavings the rule's hotplug checks explored, one entry per outcome table, counts added up. */
    public List<GradedRuns> graded() {
        Map<OutcomeTable, GradedRuns> out = new LinkedHashMap<>();
        for (Evidence e : evidence) for (GradedRuns g : e.graded()) out.merge(g.table(), g, GradedRuns::plus);
        return List.copyOf(out.values());
    }

    /** Of {@link #tries()}, the cases of small scopes walked to their end ({@code certify --exhaustive}). */
    public int cases() {
        return evidence.stream().mapToInt(Evidence::cases).sum();
    }

    /** The most distinct machines one of the rule's small-scope walks covered, or one of its checks judged on a pool of machines (a booted kernel's). */
    public int machines() {
        return evidence.stream().mapToInt(Evidence::machines).max().orElse(0);
    }

    /** Of {@link #tries()}, those that reached the implementation and judged the rule. */
    public int judged() {
        return evidence.stream().mapToInt(Evidence::judged).sum();
    }
}
