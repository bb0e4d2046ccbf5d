package dev.numaspread.conformance.rules;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The spec rules a test proves. The rule-coverage gate reads it: a rule id that is not in
 * {@code spec/} fails the build, and so does a rule nothing proves.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Proves {
    /** Rule ids such as {@code LS-3}. */
    String[] value();
}
