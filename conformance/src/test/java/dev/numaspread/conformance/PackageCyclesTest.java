package dev.numaspread.conformance;

import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No package of the model, and no package of the kit, depends on itself through others (one
 * package per idea, and a helper two packages need has a home both can see). The graph is read
 * from the compiled classes: every class a class file names in its constant pool (types,
 * descriptors, signatures) is a dependency of its package. If this fails, move the type that
 * closes the cycle to a package both sides may see, as {@code ImplementationFailure} went to
 * {@code spi} and {@code Releases} to {@code model.kernel}.
 */
class PackageCyclesTest {

    @Test
    void theModelHasNoPackageCycle() throws IOException {
        Graph model = Graph.read(classRoot(KernelRelease.class), "dev.numaspread.model");
        assertTrue(model.classes() > 50, "read only " + model.classes() + " model classes; expected the whole model");
        assertTrue(model.edges().getOrDefault("dev.numaspread.model.spread", Set.of())
                        .contains("dev.numaspread.model.numa"),
                "the model graph lacks spread -> numa (LocalSpread uses NumaLevels): the class files were not read");
        assertEquals(List.of(), model.cycles());
    }

    @Test
    void theKitHasNoPackageCycle() throws IOException {
        Graph kit = Graph.read(classRoot(Routine.class), "dev.numaspread.conformance");
        assertTrue(kit.classes() > 50, "read only " + kit.classes() + " kit classes; expected the whole kit");
        assertTrue(kit.edges().getOrDefault("dev.numaspread.conformance.certify", Set.of())
                        .contains("dev.numaspread.conformance.spi"),
                "the kit graph lacks certify -> spi (Certifier uses Implementation): the class files were not read");
        assertEquals(List.of(), kit.cycles());
    }

    @Test
    void aCycleIsFoundAndNamedWithTheClassesThatCloseIt() {
        Map<String, Set<String>> edges = new TreeMap<>(Map.of(
                "p.a", new TreeSet<>(Set.of("p.b")), "p.b", new TreeSet<>(Set.of("p.c")), "p.c", new TreeSet<>(Set.of("p.a")),
                "p.d", new TreeSet<>(Set.of("p.a"))));
        Map<String, Set<String>> uses = new TreeMap<>(Map.of(
                "p.a -> p.b", new TreeSet<>(Set.of("A uses B", "A2 uses B", "A3 uses B", "A4 uses B")),
                "p.b -> p.c", Set.of("B uses C"), "p.c -> p.a", Set.of("C uses A")));
        assertEquals(List.of("found the package cycle p.a -> p.b -> p.c -> p.a; expected no cycle (move the type that closes it"
                        + " where both sides can see it): p.a -> p.b by A uses B, A2 uses B, A3 uses B and 1 more;"
                        + " p.b -> p.c by B uses C; p.c -> p.a by C uses A"),
                new Graph(3, edges, uses).cycles());
        edges.get("p.c").clear();
        assertEquals(List.of(), new Graph(3, edges, uses).cycles());
    }

    /** The folder or jar the class was loaded from. */
    private static Path classRoot(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(c + ": its code source is not a path", e);
        }
    }

    /**
     * The package graph of the classes under {@code prefix}: {@code edges} from a package to the
     * packages it uses, {@code uses} the class pairs behind each edge ({@code "a -> b"}).
     */
    record Graph(int classes, Map<String, Set<String>> edges, Map<String, Set<String>> uses) {

        private static final Pattern CLASS_NAME = Pattern.compile("dev/numaspread(?:/[a-z][a-z0-9_]*)+/[A-Z][A-Za-z0-9_$]*");

        static Graph read(Path root, String prefix) throws IOException {
            if (Files.isDirectory(root)) return read(root, root, prefix);
            try (FileSystem jar = FileSystems.newFileSystem(root)) {
                return read(root, jar.getPath("/"), prefix);
            }
        }

        private static Graph read(Path where, Path top, String prefix) throws IOException {
            Map<String, Set<String>> edges = new TreeMap<>();
            Map<String, Set<String>> uses = new TreeMap<>();
            int classes = 0;
            List<Path> files;
            try (Stream<Path> s = Files.walk(top)) {
                files = s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
            }
            for (Path f : files) {
                String self = top.relativize(f).toString().replace(".class", "").replace('/', '.');
                if (!self.startsWith(prefix + ".")) continue;
                classes++;
                String from = packageOf(self);
                edges.computeIfAbsent(from, k -> new TreeSet<>());
                for (String text : utf8Constants(f, where)) {
                    Matcher m = CLASS_NAME.matcher(text);
                    while (m.find()) {
                        String used = m.group().replace('/', '.');
                        String to = packageOf(used);
                        if (to.equals(from) || !to.startsWith(prefix + ".") && !to.equals(prefix)) continue;
                        edges.get(from).add(to);
                        uses.computeIfAbsent(from + " -> " + to, k -> new TreeSet<>())
                                .add(simple(self) + " uses " + simple(used));
                    }
                }
            }
            return new Graph(classes, edges, uses);
        }

        private static String packageOf(String className) {
            return className.substring(0, className.lastIndexOf('.'));
        }

        private static String simple(String className) {
            String s = className.substring(className.lastIndexOf('.') + 1);
            return s.contains("$") ? s.substring(0, s.indexOf('$')) : s;
        }

        /**
         * The text constants of a class file (JVMS §4.4): class names, descriptors and signatures
         * are all among them.
         */
        private static List<String> utf8Constants(Path classFile, Path where) throws IOException {
            List<String> out = new ArrayList<>();
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Files.readAllBytes(classFile)))) {
                if (in.readInt() != 0xCAFEBABE)
                    throw new IOException(where + ": " + classFile + ": found no class file magic; expected 0xCAFEBABE");
                in.readUnsignedShort();                       // minor version
                in.readUnsignedShort();                       // major version
                int count = in.readUnsignedShort();
                for (int i = 1; i < count; i++) {
                    int tag = in.readUnsignedByte();
                    switch (tag) {
                        case 1 -> out.add(in.readUTF());      // Utf8: u2 length, modified UTF-8, as readUTF reads it
                        case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                        case 15 -> in.skipNBytes(3);
                        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                        case 5, 6 -> {                        // Long and Double take two entries
                            in.skipNBytes(8);
                            i++;
                        }
                        default -> throw new IOException(where + ": " + classFile + ": found constant pool tag " + tag
                                + " at entry " + i + "; expected one of JVMS §4.4");
                    }
                }
            }
            return out;
        }

        /** One message per strongly connected set of two or more packages, with one cycle through it. */
        List<String> cycles() {
            List<String> out = new ArrayList<>();
            for (Set<String> component : components()) {
                List<String> cycle = cycleThrough(component);
                List<String> why = new ArrayList<>();
                for (int i = 0; i + 1 < cycle.size(); i++) {
                    String edge = cycle.get(i) + " -> " + cycle.get(i + 1);
                    List<String> by = List.copyOf(uses.getOrDefault(edge, Set.of()));
                    why.add(edge + " by " + String.join(", ", by.subList(0, Math.min(3, by.size())))
                            + (by.size() > 3 ? " and " + (by.size() - 3) + " more" : ""));
                }
                out.add("found the package cycle " + String.join(" -> ", cycle) + "; expected no cycle (move the type"
                        + " that closes it where both sides can see it): " + String.join("; ", why));
            }
            return out;
        }

        // Tarjan's strongly connected components, over packages in name order so messages are stable.
        private List<Set<String>> components() {
            Map<String, Integer> index = new TreeMap<>(), low = new TreeMap<>();
            Deque<String> stack = new ArrayDeque<>();
            Set<String> onStack = new TreeSet<>();
            List<Set<String>> out = new ArrayList<>();
            for (String v : edges.keySet()) if (!index.containsKey(v)) strongConnect(v, index, low, stack, onStack, out);
            return out;
        }

        private void strongConnect(String v, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
                                   Set<String> onStack, List<Set<String>> out) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.push(v);
            onStack.add(v);
            for (String w : edges.getOrDefault(v, Set.of())) {
                if (!index.containsKey(w)) {
                    strongConnect(w, index, low, stack, onStack, out);
                    low.put(v, Math.min(low.get(v), low.get(w)));
                } else if (onStack.contains(w)) low.put(v, Math.min(low.get(v), index.get(w)));
            }
            if (low.get(v).equals(index.get(v))) {
                Set<String> component = new TreeSet<>();
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    component.add(w);
                } while (!w.equals(v));
                if (component.size() > 1) out.add(component);
            }
        }

        /** A shortest cycle from the first package of {@code component} back to it, inside the component. */
        private List<String> cycleThrough(Set<String> component) {
            String start = component.iterator().next();
            Map<String, String> parent = new TreeMap<>();
            Deque<String> queue = new ArrayDeque<>(List.of(start));
            while (!queue.isEmpty()) {
                String v = queue.poll();
                for (String w : edges.getOrDefault(v, Set.of())) {
                    if (!component.contains(w)) continue;
                    if (w.equals(start)) {
                        List<String> path = new ArrayList<>(List.of(start));
                        for (String p = v; !p.equals(start); p = parent.get(p)) path.add(1, p);
                        path.add(start);
                        return path;
                    }
                    if (!parent.containsKey(w)) {
                        parent.put(w, v);
                        queue.add(w);
                    }
                }
            }
            throw new IllegalStateException("no cycle through " + start + " in its own strongly connected set " + component);
        }
    }
}
