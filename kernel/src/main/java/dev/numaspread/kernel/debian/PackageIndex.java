package dev.numaspread.kernel.debian;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The packages that Debian's {@code Packages} indices list (the files apt keeps in its lists
 * folder, one per suite), restricted to the names a predicate admits so that the 50 MB indices of
 * a whole suite are not held in memory. A {@code Packages} file is a sequence of stanzas separated
 * by blank lines; each line is {@code Field: value}, a line starting with a space continues the
 * field before it (Debian Policy §5.1).
 */
public final class PackageIndex {

    private final TreeMap<String, List<DebianPackage>> byName;

    private PackageIndex(TreeMap<String, List<DebianPackage>> byName) {
        this.byName = byName;
    }

    /** The suite an apt lists file is the index of: {@code trixie-backports} of {@code deb.debian.org_debian_dists_trixie-backports_main_binary-amd64_Packages}. */
    static Optional<String> suiteOfListsFile(String fileName) {
        Matcher m = LISTS_FILE.matcher(fileName);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static final Pattern LISTS_FILE = Pattern.compile(".*_dists_([^_]+)_main_binary-[a-z0-9]+_Packages");

    /** Reads every uncompressed {@code *_Packages} file of an apt lists folder. */
    public static PackageIndex readLists(Path lists, Predicate<String> names) {
        TreeMap<String, List<DebianPackage>> byName = new TreeMap<>();
        try (Stream<Path> files = Files.list(lists)) {
            for (Path f : files.sorted().toList()) {
                Optional<String> suite = suiteOfListsFile(f.getFileName().toString());
                if (suite.isEmpty()) continue;
                try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                    read(r, suite.get(), names, byName);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PackageIndex(byName);
    }

    /** Reads one index text: the stanzas of {@code suite} (tests give a small fixture). */
    public static PackageIndex read(BufferedReader text, String suite, Predicate<String> names) throws IOException {
        TreeMap<String, List<DebianPackage>> byName = new TreeMap<>();
        read(text, suite, names, byName);
        return new PackageIndex(byName);
    }

    /**
     * Writes the packages as one index text whose stanzas carry their suite in a {@code Suite} field;
     * {@link #readKept} reads it back. The kernel packages of seven suites take 2 MB instead of 170.
     */
    public void write(Path file) {
        StringBuilder sb = new StringBuilder();
        for (List<DebianPackage> versions : byName.values())
            for (DebianPackage p : versions) {
                sb.append("Package: ").append(p.name()).append('\n').append("Version: ").append(p.version()).append('\n')
                        .append("Suite: ").append(p.suite()).append('\n');
                if (!p.depends().isEmpty())
                    sb.append("Depends: ").append(String.join(", ", p.depends().stream().map(alts -> String.join(" | ",
                            alts.stream().map(DebianPackage.Dependency::toString).toList())).toList())).append('\n');
                sb.append("Filename: ").append(p.filename()).append('\n').append("Size: ").append(p.size()).append("\n\n");
            }
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, sb.toString(), StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads what {@link #write} wrote. */
    public static PackageIndex readKept(Path file) {
        TreeMap<String, List<DebianPackage>> byName = new TreeMap<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            read(r, "", n -> true, byName);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PackageIndex(byName);
    }

    private static void read(BufferedReader r, String suite, Predicate<String> names, Map<String, List<DebianPackage>> into) throws IOException {
        Map<String, String> fields = new TreeMap<>();
        String last = null;
        boolean wanted = true;
        for (String line = r.readLine(); ; line = r.readLine()) {
            if (line == null || line.isEmpty()) {
                if (wanted && fields.containsKey("Package")) add(fields, suite, into);
                fields.clear();
                last = null;
                wanted = true;
                if (line == null) return;
                continue;
            }
            if (!wanted) continue;
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                if (last != null) fields.merge(last, " " + line.strip(), String::concat);
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) continue;
            last = line.substring(0, colon);
            String value = line.substring(colon + 1).strip();
            // Package comes first in a stanza: skip the rest of a stanza nobody asked for without storing it.
            if (last.equals("Package") && !names.test(value)) wanted = false;
            if (KEPT.contains(last)) fields.put(last, value);
            else last = null;
        }
    }

    private static final List<String> KEPT = List.of("Package", "Version", "Depends", "Filename", "Size", "Suite");

    private static void add(Map<String, String> f, String suite, Map<String, List<DebianPackage>> into) {
        String name = f.get("Package");
        long size = 0;
        try {
            size = Long.parseLong(f.getOrDefault("Size", "0"));
        } catch (NumberFormatException ignored) {
            // an index without sizes still names its packages
        }
        DebianPackage p = new DebianPackage(name, f.getOrDefault("Version", ""), f.getOrDefault("Suite", suite), depends(f.getOrDefault("Depends", "")),
                f.getOrDefault("Filename", ""), size);
        into.computeIfAbsent(name, k -> new ArrayList<>()).add(p);
    }

    private static final Pattern DEPENDENCY = Pattern.compile("\\s*([^\\s(\\[:]+)(?::\\S+)?\\s*(?:\\(\\s*(<<|<=|=|>=|>>)\\s*([^)\\s]+)\\s*\\))?.*");

    /** {@code a (>= 1) | b, c} as [[a (>= 1), b], [c]]. */
    static List<List<DebianPackage.Dependency>> depends(String field) {
        List<List<DebianPackage.Dependency>> out = new ArrayList<>();
        if (field.isBlank()) return out;
        for (String entry : field.split(",")) {
            List<DebianPackage.Dependency> alternatives = new ArrayList<>();
            for (String alt : entry.split("\\|")) {
                Matcher m = DEPENDENCY.matcher(alt);
                if (!m.matches()) continue;
                alternatives.add(new DebianPackage.Dependency(m.group(1), m.group(2) == null ? "" : m.group(2),
                        m.group(3) == null ? "" : m.group(3)));
            }
            if (!alternatives.isEmpty()) out.add(alternatives);
        }
        return out;
    }

    /** Every version of {@code name} in every suite, oldest first. */
    public List<DebianPackage> versions(String name) {
        List<DebianPackage> all = new ArrayList<>(byName.getOrDefault(name, List.of()));
        all.sort(Comparator.comparing(DebianPackage::version, DebianVersion.ORDER).thenComparing(DebianPackage::suite));
        return all;
    }

    /** The newest version of {@code name} that {@code dependency} admits; empty when no suite has one. */
    public Optional<DebianPackage> newest(DebianPackage.Dependency dependency) {
        List<DebianPackage> v = versions(dependency.name());
        for (int i = v.size() - 1; i >= 0; i--)
            if (dependency.admits(v.get(i).version())) return Optional.of(v.get(i));
        return Optional.empty();
    }

    /** The names listed, ascending. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }
}
