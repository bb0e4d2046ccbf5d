package dev.numaspread.model.hotplug;

/**
 * How an {@link OutcomeTable} grades an outcome, as jcstress grades its results: allowed, allowed
 * but worth a look, or breaking a rule.
 */
public enum Grade { ACCEPTABLE, INTERESTING, FORBIDDEN }
