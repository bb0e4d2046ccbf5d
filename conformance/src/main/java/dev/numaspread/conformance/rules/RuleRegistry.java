package dev.numaspread.conformance.rules;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every rule of {@code spec/*.md}, in file then line order.
 *
 * <p>STUB by the certifier engineer: the kit engineer owns the real registry (with the coverage
 * gate); this one parses the same heading + level line and is replaced on merge.
 */
public final class RuleRegistry {

    private static final Pattern HEADING = Pattern.compile("###\\s+([A-Z][A-Z0-9]*-\\d+[a-z]?)\\s+(.+)");
    private static final Pattern LEVEL = Pattern.compile(
            "level:\\s*(MUST|EXACT|SHOULD)\\s*;\\s*kernels:\\s*([^;]*);\\s*sources:\\s*(.*)");

    private final List<Rule> rules;
    private final Map<String, Rule> byId = new TreeMap<>();

    private RuleRegistry(List<Rule> rules) {
        this.rules = List.copyOf(rules);
        for (Rule r : this.rules) byId.put(r.id(), r);
    }

    /** The rules of the spec files packaged under {@code numaspread/spec/} on the class path; empty when none are. */
    public static RuleRegistry load() {
        Map<String, String> files = new TreeMap<>();
        try {
            Enumeration<URL> roots = RuleRegistry.class.getClassLoader().getResources("numaspread/spec");
            while (roots.hasMoreElements()) readSpecDir(roots.nextElement(), files);
        } catch (IOException e) {
            throw new UncheckedIOException("numaspread/spec: cannot list the spec files: " + e.getMessage(), e);
        }
        return parse(files);
    }

    /** The rules of {@code files}: spec file name ({@code spec/local-spread.md}) to its text. */
    public static RuleRegistry parse(Map<String, String> files) {
        List<Rule> out = new ArrayList<>();
        for (Map.Entry<String, String> f : new TreeMap<>(files).entrySet()) {
            String[] lines = f.getValue().split("\n", -1);
            for (int n = 0; n < lines.length; n++) {
                Matcher h = HEADING.matcher(lines[n].strip());
                if (!h.matches()) continue;
                Matcher l = n + 1 < lines.length ? LEVEL.matcher(lines[n + 1].strip()) : null;
                if (l == null || !l.matches())
                    throw new IllegalArgumentException(f.getKey() + ":" + (n + 2) + ": found '"
                            + (n + 1 < lines.length ? lines[n + 1].strip() : "end of file")
                            + "'; expected 'level: MUST|EXACT|SHOULD; kernels: ...; sources: ...' under rule " + h.group(1));
                out.add(new Rule(h.group(1), h.group(2).strip(), Rule.Level.valueOf(l.group(1)), l.group(2).strip(),
                        List.of(l.group(3).strip()), f.getKey(), n + 1));
            }
        }
        return new RuleRegistry(out);
    }

    public List<Rule> rules() {
        return rules;
    }

    public Optional<Rule> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    private static void readSpecDir(URL url, Map<String, String> files) throws IOException {
        if (url.getProtocol().equals("file")) {
            Path dir;
            try {
                dir = Path.of(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException(url + ": " + e.getMessage(), e);
            }
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.filter(p -> p.toString().endsWith(".md")).sorted().toList())
                    files.put("spec/" + p.getFileName(), Files.readString(p, StandardCharsets.UTF_8));
            }
        } else if (url.getProtocol().equals("jar")) {
            JarURLConnection c = (JarURLConnection) url.openConnection();
            try (JarFile jar = new JarFile(new java.io.File(URI.create(c.getJarFileURL().toString())))) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry e = entries.nextElement();
                    String n = e.getName();
                    if (n.startsWith("numaspread/spec/") && n.endsWith(".md") && n.indexOf('/', 16) < 0) {
                        try (InputStream in = jar.getInputStream(e)) {
                            files.put(n.substring("numaspread/".length()), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                        }
                    }
                }
            }
        }
    }
}
