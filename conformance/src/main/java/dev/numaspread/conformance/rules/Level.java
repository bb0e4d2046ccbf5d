package dev.numaspread.conformance.rules;

/**
 * How binding a rule is. A certificate says which level an implementation reached: every MUST
 * rule of its claims, or also every EXACT rule.
 */
public enum Level {
    /** The contract: every correct implementation keeps it. */
    MUST,
    /** The kernel's exact choice where the contract allows several (which node gets group 0). */
    EXACT,
    /** Advice: a better answer, not a wrong one when missed (reported, never failed). */
    SHOULD
}
