package dev.numaspread.conformance.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The repository's {@code spec/}, {@code features/} and {@code fixtures/} trees, read either from
 * the conformance jar (where the build packages them under {@code numaspread/}) or from a checkout.
 * Paths are relative and use {@code /}: {@code spec/local-spread.md}; they are what error messages
 * print before {@code :line}.
 */
public final class Bundle {

    /** The folder of the conformance jar that holds the packaged trees. */
    public static final String PREFIX = "numaspread/";

    private final String description;
    private final Tree tree;

    private Bundle(String description, Tree tree) {
        this.description = description;
        this.tree = tree;
    }

    /** The trees packaged in the conformance jar (or its {@code target/classes} during the build). */
    public static Bundle classpath() {
        return new Bundle("the conformance jar (" + PREFIX + ")", locatePackaged());
    }

    /** The trees packaged under {@code numaspread/} in the jar file {@code jar}. */
    public static Bundle jar(Path jar) {
        return new Bundle(jar + " (" + PREFIX + ")", new JarTree(jar));
    }

    /** The trees of a checkout rooted at {@code root} (the folder holding {@code spec/}). */
    public static Bundle directory(Path root) {
        return new Bundle(root.toString(), new DirectoryTree(root));
    }

    /**
     * The root of the checkout that contains {@code start}: the nearest folder, walking up, that
     * holds both {@code spec/} and {@code pom.xml}; empty when {@code start} is not inside one.
     */
    public static Optional<Path> findCheckout(Path start) {
        for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent())
            if (Files.isDirectory(p.resolve("spec")) && Files.isRegularFile(p.resolve("pom.xml"))) return Optional.of(p);
        return Optional.empty();
    }

    /** Where the trees come from, for messages. */
    public String description() {
        return description;
    }

    /** The names of the regular files directly in {@code dir}, ascending; empty when there is no such folder. */
    public List<String> list(String dir) {
        return tree.list(trimSlashes(dir));
    }

    /** The names of the files directly in {@code dir} that end with {@code suffix}, ascending. */
    public List<String> list(String dir, String suffix) {
        return list(dir).stream().filter(n -> n.endsWith(suffix)).toList();
    }

    /** The texts of the files directly in {@code dir} that end with {@code suffix}, by path ({@code spec/local-spread.md}), in path order. */
    public SortedMap<String, String> texts(String dir, String suffix) {
        SortedMap<String, String> out = new TreeMap<>();
        for (String name : list(dir, suffix)) out.put(trimSlashes(dir) + "/" + name, read(trimSlashes(dir) + "/" + name));
        return out;
    }

    public boolean exists(String path) {
        return tree.read(trimSlashes(path)).isPresent();
    }

    /** The text of {@code path} (UTF-8), or empty when it does not exist. */
    public Optional<String> readIfPresent(String path) {
        return tree.read(trimSlashes(path));
    }

    /**
     * The text of {@code path} (UTF-8).
     *
     * @throws IllegalArgumentException "{@code path}: not found in ...; expected ..."
     */
    public String read(String path) {
        return readIfPresent(path).orElseThrow(() -> new IllegalArgumentException(
                trimSlashes(path) + ": not found in " + description + "; expected a file of spec/, features/ or fixtures/"));
    }

    @Override
    public String toString() {
        return description;
    }

    private static String trimSlashes(String path) {
        String p = path.replace('\\', '/');
        while (p.startsWith("/")) p = p.substring(1);
        while (p.endsWith("/")) p = p.substring(0, p.length() - 1);
        return p;
    }

    private interface Tree {
        List<String> list(String dir);

        Optional<String> read(String path);
    }

    private record DirectoryTree(Path root) implements Tree {
        @Override
        public List<String> list(String dir) {
            Path d = root.resolve(dir);
            if (!Files.isDirectory(d)) return List.of();
            try (Stream<Path> s = Files.list(d)) {
                return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
            } catch (IOException e) {
                throw new UncheckedIOException(d + ": cannot list", e);
            }
        }

        @Override
        public Optional<String> read(String path) {
            Path f = root.resolve(path);
            if (!Files.isRegularFile(f)) return Optional.empty();
            try {
                return Optional.of(Files.readString(f, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(f + ": cannot read", e);
            }
        }
    }

    /**
     * The packaged trees. Listing a folder needs the container, so the tree looks at where this
     * class was loaded from: a jar (the conformance jar, or the CLI's shaded jar) or the
     * {@code target/classes} folder of a build.
     */
    private static Tree locatePackaged() {
        CodeSource cs = Bundle.class.getProtectionDomain().getCodeSource();
        Path container = null;
        if (cs != null && cs.getLocation() != null) {
            try {
                container = Path.of(cs.getLocation().toURI());
            } catch (URISyntaxException | IllegalArgumentException e) {
                container = null;       // not a file: nothing to list
            }
        }
        if (container != null && Files.isDirectory(container)) return new DirectoryTree(container.resolve(PREFIX));
        if (container != null && Files.isRegularFile(container)) return new JarTree(container);
        return new DirectoryTree(Path.of("/nonexistent-numaspread-bundle"));
    }

    /** The trees under {@code numaspread/} of a jar file. */
    private record JarTree(Path jar) implements Tree {
        @Override
        public List<String> list(String dir) {
            String prefix = PREFIX + (dir.isEmpty() ? "" : dir + "/");
            TreeSet<String> names = new TreeSet<>();
            try (JarFile j = new JarFile(jar.toFile())) {
                for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    String n = entry.getName();
                    if (!entry.isDirectory() && n.startsWith(prefix) && n.indexOf('/', prefix.length()) < 0)
                        names.add(n.substring(prefix.length()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(jar + ": cannot read the jar", e);
            }
            return List.copyOf(names);
        }

        @Override
        public Optional<String> read(String path) {
            try (JarFile j = new JarFile(jar.toFile())) {
                JarEntry entry = j.getJarEntry(PREFIX + path);
                if (entry == null || entry.isDirectory()) return Optional.empty();
                try (InputStream in = j.getInputStream(entry)) {
                    return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(jar + "!/" + PREFIX + path + ": cannot read", e);
            }
        }
    }
}
