package dev.numaspread.conformance.steps;

import io.cucumber.java.ParameterType;

import java.util.Arrays;

/**
 * The parameter type {@code {sequence}}: numbers in a given order, {@code 2, 0, 4, 5, 2, 0}, for
 * answers whose order matters (a plan of CPUs, the NUMA levels), where {@code {cpulist}} would sort.
 */
public final class Sequences {

    /** {@code {sequence}}: comma-and-space separated numbers, kept in order. */
    @ParameterType(name = "sequence", value = "\\d+(?:, \\d+)*", useForSnippets = false)
    public int[] sequence(String text) {
        return Arrays.stream(text.split(",\\s*")).mapToInt(Integer::parseInt).toArray();
    }

    /** The sequence as the steps write it: {@code 2, 0, 4}. */
    static String text(int[] values) {
        return String.join(", ", Arrays.stream(values).mapToObj(String::valueOf).toList());
    }
}
