package dev.numaspread.cli;

import dev.numaspread.conformance.bundle.Bundle;
import dev.numaspread.conformance.rules.Proves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every command of the README's "Audit a machine" section, of its snapshot lines under "Check a
 * topology" and of the three views of "Plan" (side by side, svg, --explain) runs as printed, from
 * the checkout, and shows what its comment says (issue 13). The commands are read from README.md,
 * so a command added there without an expectation here, or an expectation whose command left the
 * README, fails this test. Each runs through {@link Main#run} with the README's relative paths
 * taken from the checkout and the files it writes ({@code my-machine.tar}, {@code kunpeng.svg}) put
 * in a temporary folder; {@code &&}, {@code > FILE}, {@code | diff - FILE} and {@code | head -N}
 * are followed as a shell would. Expected values come from the kernel runs (fixtures/kernel-runs),
 * never from the model.
 */
class ReadmeCommandsTest {

    static final Path ROOT = Bundle.findCheckout(Path.of("").toAbsolutePath()).orElseThrow();

    /** What a README command must show: its exit codes allowed, and text its output (stdout, or the file it wrote) must hold. */
    record Expect(Set<Integer> exits, List<String> shows) {
        static Expect exit(int code, String... shows) {
            return new Expect(Set.of(code), List.of(shows));
        }
    }

    /** The expectations, keyed by the README's command line without its comment. */
    static final Map<String, Expect> EXPECTED = new LinkedHashMap<>();

    static {
        // Check a topology: a snapshot of this machine, read wherever a topology file goes.
        EXPECTED.put("./numaspread snapshot snap.tar", Expect.exit(0, "snap.tar: ", " files"));
        EXPECTED.put("./numaspread check-topology snap.tar", Expect.exit(0, ": valid", "\nnodes     ", "\ndistances "));
        // Audit a machine: the archives of fixtures/snapshots, from the real 6.1.192, 6.12.117 and 7.3.4 runs.
        EXPECTED.put("./numaspread audit fixtures/snapshots/a-2node-2s2c2t-linux-6.12-boot.tar",
                Expect.exit(0, "kernel    Linux 6.12.117+deb12-amd64, audited as 6.12\n",
                        "MATCH         nullb0                 blk-mq-map          node -1  3 queues\n",
                        "\nevery device matches Linux 6.12\n"));
        EXPECTED.put("./numaspread audit fixtures/snapshots/a-2node-2s2c2t-linux-6.1-boot.tar --kernel 6.12 --identify",
                Expect.exit(1, "DIFFERS       nullb0                 blk-mq-map          node -1  3 queues\n"
                                + "              queue 0: expected 4-7, actual 0,4-5\n",
                        "  every device           6.1\nthe machine runs 6.1, which is among them\n"));
        EXPECTED.put("./numaspread audit fixtures/snapshots/a-2node-2s2c2t-linux-7.3-boot.tar --identify",
                Expect.exit(0, "kernel    Linux 7.3.4+deb13-amd64, audited as 7.3\n",
                        "MATCH         nullb0                 blk-mq-map          node -1  3 queues\n",
                        "\nevery device matches Linux 7.3\n",
                        "  every device           7.0-7.3\nthe machine runs 7.3, which is among them\n"));
        EXPECTED.put("./numaspread audit fixtures/snapshots/c-epyc-4node-smt-split-linux-6.12-offline.tar",
                Expect.exit(0, "machine   4 nodes, possible CPUs 0-15, online 0-8,10-15\n",
                        "  crosses-nodes      queue 0 of nullb0: CPUs 0-1,6-9,14-15 span nodes 0,3 (as Linux 6.12 places them)\n"));
        EXPECTED.put("./numaspread audit fixtures/snapshots/a-2node-2s2c2t-linux-6.12-mlx5-moved.tar",
                Expect.exit(1, "              IRQ 62 (mlx5_comp2@pci:0000:08:00.0): expected 6, actual 0\n",
                        "  moved              IRQ 63 (mlx5_comp3@pci:0000:08:00.0): affinity 0 is not the driver's hint 7",
                        "\n1 of 4 devices differ from Linux 6.12\n"));
        // This machine: whatever it runs, the audit names the releases that explain it (exit 1 if a device differs).
        EXPECTED.put("./numaspread snapshot my-machine.tar && ./numaspread audit my-machine.tar --identify",
                new Expect(Set.of(0, 1), List.of("\nreleases that explain what the machine shows (", "\nthe machine runs ")));
        // Plan's three views. The null_blk maps for 3 queues are what the 6.1, 6.12 and 7.3 runs printed.
        EXPECTED.put("./numaspread plan --routine blk-mq-map --kernel 6.1,6.12,7.3 --topology fixtures/kernel-runs/a-2node-2s2c2t-linux-6.12-boot.topo --count 3",
                Expect.exit(0, String.join("\n",
                        "queue  6.1    6.12  7.3",
                        "0      0,4-5  4-7   4-7  <> differs",
                        "1      1,6-7  0-1   2-3  <> differs",
                        "2      2-3    2-3   0-1  <> differs",
                        "3 of 3 queues differ between 6.1, 6.12 and 7.3", "")));
        // The picture: one panel per release, nodes in distance order from node 2 (seed 003: 10, 16, 25, 32), a legend.
        EXPECTED.put("./numaspread plan --routine local-spread --kernel 6.1,6.12 --topology fixtures/topologies/kunpeng920-4node.topo --node 2 --count 48 --format svg > kunpeng.svg",
                Expect.exit(0, "<svg xmlns=\"http://www.w3.org/2000/svg\"", "class=\"panel\" data-title=\"Linux 6.1\"",
                        "class=\"panel\" data-title=\"Linux 6.12\"", "id=\"legend\"",
                        "<g class=\"node\" data-node=\"2\">", "<g class=\"cpu\" data-cpu=\"48\" data-slots=\"0\">"));
        // Seed 003's Kunpeng: ring 0 is node 2 (48-71), then nodes 3, 1, 0 by distance; queue 96 wraps to 48.
        EXPECTED.put("./numaspread plan --routine local-spread --kernel 6.12 --topology fixtures/topologies/kunpeng920-4node.topo --node 2 --count 97 --explain",
                Expect.exit(0, "\n0       48 ", "ring 0: node 2 itself (distance 10)", "\n24      72 ", "distance 16 from node 2 (node 3)",
                        "\n48      24 ", "distance 25 from node 2 (node 1)", "\n72      0  ", "distance 32 from node 2 (node 0)",
                        "\n96      48 ", "wraps: 96 mod 96 online CPUs = 0", "LS-2"));
        // group_cpus_evenly(6) as the 6.12.117 run printed it with CPU 9 offline.
        EXPECTED.put("./numaspread plan --routine group-cpus --kernel 6.12 --topology fixtures/kernel-runs/c-epyc-4node-smt-split-linux-6.12-offline.topo --count 6 --explain",
                Expect.exit(0, "\n0       2-3,10-11 ", "\n1       6-7,14-15 ", "\n2       4,12 ", "\n3       5,13 ", "\n4       0,8 ",
                        "\n5       1,9 ", "GRP-"));
    }

    /** The README's text of section {@code heading}, up to the next second-level heading, with the line it starts at. */
    record Section(String text, int firstLine) {}

    static Section section(String readme, String heading) {
        int start = readme.indexOf("\n## " + heading + "\n");
        assertTrue(start >= 0, "README.md: found no section '## " + heading + "'");
        int end = readme.indexOf("\n## ", start + 1);
        return new Section(readme.substring(start, end < 0 ? readme.length() : end), readme.substring(0, start).split("\n", -1).length + 1);
    }

    /** The {@code ./numaspread} lines of the section's code blocks that hold {@code marker}, without comments, each with its README line. */
    static Map<String, Integer> commands(Section s, String marker) {
        Map<String, Integer> out = new LinkedHashMap<>();
        Matcher block = Pattern.compile("\n```\n(.*?)\n```\n", Pattern.DOTALL).matcher(s.text());
        while (block.find()) {
            if (!block.group(1).contains(marker)) continue;
            int line = s.firstLine() + s.text().substring(0, block.start(1)).split("\n", -1).length - 1;
            for (String l : block.group(1).split("\n")) {
                String c = l.replaceFirst("\\s+#.*$", "").strip();
                if (c.startsWith("./numaspread ")) out.put(c, line);
                line++;
            }
        }
        return out;
    }

    static Map<String, Integer> readmeCommands() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Map<String, Integer> all = new LinkedHashMap<>();
        all.putAll(commands(section(readme, "Check a topology"), "snapshot"));
        all.putAll(commands(section(readme, "Audit a machine"), "./numaspread audit"));
        Map<String, Integer> plan = commands(section(readme, "Plan"), "--explain");
        plan.forEach((c, l) -> { if (c.contains("--explain") || c.contains("--format svg") || c.matches(".*--kernel \\S*,.*")) all.put(c, l); });
        return all;
    }

    @Test
    void everyCommandOfTheSectionHasAnExpectationAndEveryExpectationIsInTheReadme() throws IOException {
        Map<String, Integer> readme = readmeCommands();
        List<String> problems = new ArrayList<>();
        readme.forEach((c, l) -> { if (!EXPECTED.containsKey(c)) problems.add("README.md:" + l + ": found '" + c + "'; expected an expectation in ReadmeCommandsTest"); });
        for (String c : EXPECTED.keySet()) if (!readme.containsKey(c)) problems.add("ReadmeCommandsTest: found '" + c + "'; expected it in README.md");
        assertEquals(List.of(), problems);
        assertTrue(readme.size() >= 12, "README.md: found " + readme.size() + " commands in the sections; expected at least 12");
    }

    @Test
    @Proves({"AUD-2", "AUD-4", "FMT-15"})
    void everyCommandRunsAsPrintedAndShowsWhatItsCommentSays(@TempDir Path tmp) throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Integer> c : readmeCommands().entrySet()) {
            Expect e = EXPECTED.get(c.getKey());
            if (e == null) continue;   // reported by the test above
            String where = "README.md:" + c.getValue() + ": " + c.getKey();
            Shown shown = shell(c.getKey(), tmp);
            if (!e.exits().contains(shown.exit()))
                problems.add(where + "\n  exit " + shown.exit() + "; expected " + new TreeSet<>(e.exits()) + "\n" + shown.out() + shown.err());
            for (String s : e.shows())
                if (!shown.out().contains(s)) problems.add(where + "\n  found no '" + s + "' in:\n" + shown.out() + shown.err());
        }
        assertEquals(List.of(), problems, String.join("\n\n", problems));
    }

    record Shown(int exit, String out, String err) {}

    /**
     * Runs {@code line} as {@code /bin/sh} would from the checkout: {@code &&} stops at the first
     * failure, {@code > FILE} writes stdout (the file's text is then what the command showed),
     * {@code | diff - FILE} and {@code | head -N} act on stdout. Anything else is refused, so the
     * README cannot use a construct this test would silently skip.
     */
    static Shown shell(String line, Path tmp) throws IOException {
        Shown last = new Shown(0, "", "");
        for (String command : line.split(" && ")) {
            String[] stages = command.split(" \\| ");
            List<String> words = words(stages[0]);
            Path redirect = null;
            int gt = words.indexOf(">");
            if (gt >= 0) {
                redirect = tmp.resolve(words.get(gt + 1));   // a file the command writes: never the checkout's
                words = words.subList(0, gt);
            }
            assertEquals("./numaspread", words.get(0), line);
            List<String> args = new ArrayList<>();
            for (String w : words.subList(1, words.size())) args.add(w.startsWith("-") || !looksLikeAPath(w) ? w : path(w, tmp).toString());
            StringWriter out = new StringWriter(), err = new StringWriter();
            int exit = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
            String text = out.toString();
            for (int i = 1; i < stages.length; i++) {
                List<String> pipe = words(stages[i]);
                if (pipe.size() == 3 && pipe.get(0).equals("diff") && pipe.get(1).equals("-")) {
                    exit = text.equals(Files.readString(path(pipe.get(2), tmp))) ? 0 : 1;
                } else if (pipe.size() == 2 && pipe.get(0).equals("head") && pipe.get(1).matches("-\\d+")) {
                    text = String.join("", text.lines().limit(Long.parseLong(pipe.get(1).substring(1))).map(l -> l + "\n").toList());
                    exit = 0;
                } else {
                    fail(line + ": '" + stages[i] + "' is a stage this test does not run; teach ReadmeCommandsTest.shell it");
                }
            }
            if (redirect != null) {
                Files.writeString(redirect, text);
                text = Files.readString(redirect);
            }
            last = new Shown(exit, text, err.toString());
            if (exit != 0) break;
        }
        return last;
    }

    static boolean looksLikeAPath(String w) {
        return w.contains("/") || w.matches(".*\\.(tar|topo|svg|pp|txt)$");
    }

    /** A README path: the checkout's file where it exists, else a file of the temporary folder (one the command writes). */
    static Path path(String w, Path tmp) {
        Path inCheckout = ROOT.resolve(w);
        return Files.exists(inCheckout) && !w.equals("snap.tar") && !w.equals("my-machine.tar") ? inCheckout : tmp.resolve(w);
    }

    static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("'([^']*)'|(\\S+)").matcher(command.strip());
        while (m.find()) out.add(m.group(1) != null ? m.group(1) : m.group(2));
        return out;
    }
}
