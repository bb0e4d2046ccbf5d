package dev.numaspread.conformance.checks;

import java.util.List;

/** The checks of one routine family ({@code LocalSpreadChecks}, {@code GroupCpusChecks}, ...). */
public interface CheckFamily {
    List<Check> checks();
}
