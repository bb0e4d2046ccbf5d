package dev.numaspread.conformance.rules;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/**
 * One rule of the specification: a heading {@code ### LS-3 Local CPUs come first} in
 * {@code spec/<family>.md} and its {@code level: ...; kernels: ...; sources: ...} line.
 *
 * <p>STUB by the certifier engineer (the kit engineer owns the registry); replaced on merge.
 *
 * @param kernels the releases it holds for, as written: {@code 6.3+}, {@code 4.1-5.8, 5.11-6.2}, {@code all}
 * @param file    the spec file relative to the repository: {@code spec/local-spread.md}
 * @param line    the line of the heading
 */
public record Rule(String id, String title, Level level, String kernels, List<String> sources, String file, int line) {

    public enum Level { MUST, EXACT, SHOULD }

    public Rule {
        sources = List.copyOf(sources);
    }

    /** True when the rule holds for {@code kernel}: {@code kernels} is {@code all} or names a range holding it. */
    public boolean appliesTo(KernelRelease kernel) {
        String k = kernels.strip();
        if (k.isEmpty() || k.equals("all")) return true;
        for (String part : k.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) continue;
            if (p.endsWith("+")) {
                if (kernel.compareTo(KernelRelease.parse(p.substring(0, p.length() - 1))) >= 0) return true;
            } else if (p.contains("-")) {
                String[] ab = p.split("-", 2);
                if (kernel.between(KernelRelease.parse(ab[0]), KernelRelease.parse(ab[1]))) return true;
            } else if (kernel.equals(KernelRelease.parse(p))) return true;
        }
        return false;
    }

    /** {@code spec/local-spread.md:41}. */
    public String location() {
        return file + ":" + line;
    }
}
