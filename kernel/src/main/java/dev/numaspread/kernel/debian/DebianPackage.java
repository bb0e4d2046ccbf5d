package dev.numaspread.kernel.debian;

import java.util.List;
import java.util.Objects;

/**
 * One binary package of one suite's index, with the fields numaspread reads: {@code Package},
 * {@code Version}, {@code Depends} (alternatives split on {@code |}), {@code Filename}, {@code Size},
 * and the suite whose index listed it ({@code trixie-backports}).
 */
public record DebianPackage(String name, String version, String suite, List<List<Dependency>> depends, String filename, long size) {

    public DebianPackage {
        Objects.requireNonNull(name);
        Objects.requireNonNull(version);
        Objects.requireNonNull(suite);
        depends = depends.stream().map(List::copyOf).toList();
        Objects.requireNonNull(filename);
    }

    /** One alternative of a {@code Depends} entry: {@code linux-kbuild-6.1 (>= 6.1.192-3)}; the relation and version are empty when absent. */
    public record Dependency(String name, String relation, String version) {
        /** Whether {@code candidate} (a version of {@link #name()}) satisfies the relation. */
        public boolean admits(String candidate) {
            if (relation.isEmpty()) return true;
            int c = DebianVersion.compare(candidate, version);
            return switch (relation) {
                case "=" -> c == 0;
                case ">=" -> c >= 0;
                case "<=" -> c <= 0;
                case ">>" -> c > 0;
                case "<<" -> c < 0;
                default -> false;
            };
        }

        @Override
        public String toString() {
            return relation.isEmpty() ? name : name + " (" + relation + " " + version + ")";
        }
    }

    /** {@code name=version}, as apt-get takes one exact package. */
    public String pinned() {
        return name + "=" + version;
    }
}
