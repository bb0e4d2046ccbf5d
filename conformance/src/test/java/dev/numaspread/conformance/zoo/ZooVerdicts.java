package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.model.kernel.KernelRelease;

/** What the reference model may get from a check: a pass, or "not applicable" exactly where the check's rule does not hold. */
final class ZooVerdicts {
    private ZooVerdicts() {}

    private static final RuleRegistry RULES = RuleRegistry.load();

    /**
     * True when {@code r} is a pass, or when it is {@link CheckResult.NotApplicable} for a release
     * the spec excludes from the check's rule, or for a replay of kernel runs no run of that
     * release feeds ({@code KernelRunChecks.replaysNothing}). A check that judges nothing for a release its rule
     * covers would let the rule pass on the other checks alone, or leave it NOT-VERIFIED: either
     * way the check is broken.
     */
    static boolean passesOrOutOfRange(Check check, KernelRelease kernel, CheckResult r) {
        if (r instanceof CheckResult.Passed) return true;
        if (r instanceof CheckResult.NotApplicable && dev.numaspread.conformance.checks.KernelRunChecks.replaysNothing(check, kernel)) return true;
        return r instanceof CheckResult.NotApplicable && RULES.byId(check.rule()).map(rule -> !rule.appliesTo(kernel)).orElse(false);
    }
}
