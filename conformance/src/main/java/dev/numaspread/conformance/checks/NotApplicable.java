package dev.numaspread.conformance.checks;

/**
 * The check does not apply here: thrown inside a {@code forAll} body, this try judges nothing (the
 * input falls outside the rule, or the answer is another rule's business); thrown by the check
 * itself, the check judges nothing for this implementation and release (a release the check is
 * not about, a routine that is not claimed). Never a pass: a check whose every try judged nothing
 * is left out of the certificate, and a rule that nothing judged is NOT-VERIFIED with the reason.
 */
public class NotApplicable extends RuntimeException {
    public NotApplicable(String reason) {
        super(reason);
    }
}
