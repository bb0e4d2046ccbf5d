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
 * Every command of the README's sections "Audit a machine", "Plan" and "Races", and the snapshot
 * lines of "Check a topology", runs as printed, from the checkout, and shows what its comment says
 * (issues 12 and 13: the audit, the pictures, side by side, --explain, plan --impl). The commands
 * are read from README.md, so a command added there without an expectation here, or an
 * expectation whose command left the README, fails this test. Each runs through {@link Main#run} with the README's relative paths
 * taken from the checkout and the files it writes ({@code my-machine.tar}, {@code kunpeng.svg}) put
 * in a temporary folder; {@code &&}, {@code > FILE}, {@code | diff - FILE} and {@code | head -N}
 * are followed as a shell would. Expected values come from the kernel runs (fixtures/kernel-runs),
 * the listings and seeds of the sources (fixtures/listings, seeds 000-004), never from the model.
 * With {@code NUMASPREAD_SKIP_PYTHON=1} the command that runs the Python example is left out, as
 * {@code PythonExampleTest} is.
 */
class ReadmeCommandsTest {

    static final Path ROOT = Bundle.findCheckout(Path.of("").toAbsolutePath()).orElseThrow();

    /** What a README command must show: its exit codes allowed, and text its output (stdout, or the file it wrote) must hold. */
    record Expect(Set<Integer> exits, List<String> shows, java.util.Optional<String> whole) {
        static Expect exit(int code, String... shows) {
            return new Expect(Set.of(code), List.of(shows), java.util.Optional.empty());
        }

        /** Exit 0, and the output is {@code whole}, no more, no less. */
        static Expect prints(String whole) {
            return new Expect(Set.of(0), List.of(), java.util.Optional.of(whole));
        }
    }

    /** The text of a file of the checkout. */
    static String file(String path) {
        try {
            return Files.readString(ROOT.resolve(path));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One line per element of {@code from .. to-1} stepping by {@code step}, as {@code f} writes it. */
    static String lines(int from, int to, int step, java.util.function.IntFunction<String> f) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i += step) sb.append(f.apply(i)).append('\n');
        return sb.toString();
    }

    /** CPUs {@code from .. to-1} stepping by {@code step} as {@code /sys/block/DEV/mq/Q/cpu_list} prints them. */
    static String sysfs(int from, int to, int step) {
        StringBuilder sb = new StringBuilder();
        for (int c = from; c < to; c += step) sb.append(sb.length() == 0 ? "" : ", ").append(c);
        return sb.toString();
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
        // The cloud VMs: a real 6.12 guest (NIC-2, NIC-3, the device run of fixtures/kernel-runs), and an ena guest by hand from NIC-4.
        EXPECTED.put("./numaspread audit fixtures/snapshots/dev-a-2node-2s2c2t-linux-6.12-boot.tar",
                Expect.exit(0, "MATCH         virtio1                virtio-net-irqs     node -1  21 IRQs 26-46\n",
                        "              IRQ 27 (virtio1-input.0)     forced 0       shows 0          where the kernel put it\n",
                        "              IRQ 45 (virtio1-input.9)     not set        shows 0-7        where the kernel left it: the default affinity (not set by the driver)\n",
                        "\nevery device matches Linux 6.12\n"));
        EXPECTED.put("./numaspread audit fixtures/snapshots/a-2node-2s2c2t-linux-6.1-ena-vm-irqbalance.tar",
                Expect.exit(1, "DIFFERS       ena 0000:00:05.0       ena-irqs            node 0   9 IRQs 30-38\n"
                                + "              IRQ 36 (eth0-Tx-Rx-5): expected 5, actual 2\n",
                        "              IRQ 36 (eth0-Tx-Rx-5)        forced 5       shows 2          moved: the driver forced 5; something else changed it (irqbalance, or a user)\n",
                        "MATCH         nvme0                  irq-affinity-masks  node -1  9 IRQs 50-58\n"));
        // A real KVM guest's own snapshot, 7.3 (spec/audit.md AUD-9): 3 virtio-net pairs on 8 CPUs (NIC-2: groups 0-2, 3-5, 6-7), and
        // virtio-blk's request IRQs on the masks the kernel returned for irq_create_affinity_masks(4, pre_vectors 1) in that boot.
        EXPECTED.put("./numaspread audit fixtures/snapshots/cloud-vm-a-2node-2s2c2t-linux-7.3-boot.tar",
                Expect.exit(0, "              IRQ 29 (virtio1-input.1)     forced 3-5     shows 3-5        where the kernel put it\n",
                        "              IRQ 33 (virtio2-config)      pre-vector 0-3 shows 0-3        where the kernel put it\n"
                                + "              IRQ 34 (virtio2-req.0)       managed 4-7    shows 4-7        where the kernel put it\n"
                                + "              IRQ 35 (virtio2-req.1)       managed 2-3    shows 2-3        where the kernel put it\n"
                                + "              IRQ 36 (virtio2-req.2)       managed 0-1    shows 0-1        where the kernel put it\n",
                        "\nevery device matches Linux 7.3\n"));
        // This machine: whatever it runs, the audit names the releases that explain it (exit 1 if a device differs).
        EXPECTED.put("./numaspread snapshot my-machine.tar && ./numaspread audit my-machine.tar --identify",
                new Expect(Set.of(0, 1), List.of("\nreleases that explain what the machine shows (", "\nthe machine runs "), java.util.Optional.empty()));
        // Plan. Seed 000: the mlx5 NIC on node 14 of the EPYC 7763, the "Before" and "After" listings.
        EXPECTED.put("./numaspread plan --routine local-spread --kernel 6.1 --topology fixtures/topologies/epyc7763-2s-16node.topo --node 14 --count 127 --format smp_affinity --first-irq 331",
                Expect.prints(file("fixtures/listings/epyc7763-node14-before.txt")));
        EXPECTED.put("./numaspread plan --routine local-spread --kernel 6.12 --topology fixtures/topologies/epyc7763-2s-16node.topo --node 14 --count 127 --format smp_affinity --first-irq 331 | diff - fixtures/listings/epyc7763-node14-after.txt",
                Expect.prints(""));
        // The 2022 patch past the online CPUs: classic order, node 14's 16 CPUs, then every other CPU by id, wrapping at 256.
        EXPECTED.put("./numaspread plan --routine mlx5-numa-distance --kernel 6.1 --topology fixtures/topologies/epyc7763-2s-16node.topo --node 14 --count 300 --format table",
                Expect.exit(0, "\n0      112          14    10       112,240\n", "\n15     247          14    10       119,247\n",
                        "\n16     0            0     32       0,128\n", "\n256    112          14    10       112,240\n", "\n299    "));
        // Seed 003: the Kunpeng 920, NIC on node 2 (distances 10, 16, 25, 32 to nodes 2, 3, 1, 0).
        EXPECTED.put("./numaspread plan --routine hop-masks --kernel 6.12 --topology fixtures/topologies/kunpeng920-4node.topo --node 2",
                Expect.prints("48-71\n48-95\n24-95\n0-95\n0-95\n"));
        EXPECTED.put("./numaspread plan --routine local-spread-nearest-node --kernel 6.1 --topology fixtures/topologies/kunpeng920-4node.topo --node 2 --count 48",
                Expect.prints(lines(48, 96, 1, String::valueOf)));
        // Seed 004: MANA, 2 nodes x 32 cores x 2 threads: every core of node 0, then every core again.
        EXPECTED.put("./numaspread plan --routine irq-setup --kernel 6.9 --topology fixtures/topologies/mana-2node-32c-smt2.topo --node 0 --count 64",
                Expect.prints(lines(0, 64, 1, i -> (2 * (i % 32)) + "-" + (2 * (i % 32) + 1))));
        EXPECTED.put("./numaspread plan --routine mana-setup-irqs --kernel 6.9 --topology fixtures/topologies/mana-2node-32c-smt2.topo --node 0 --granted 16 --format table",
                Expect.prints("vector cpu          node  distance core\n" + lines(0, 16, 1,
                        v -> String.format("%-6d %-12s %-5d %-8d %s", v, (2 * v) + "-" + (2 * v + 1), 0, 10, (2 * v) + "-" + (2 * v + 1)))));
        // 5316394b1752: a 4-vCPU VM with dynamic MSI-X, the HWC on the first core, then one queue per vCPU.
        EXPECTED.put("./numaspread plan --routine mana-setup-irqs --kernel 7.2 --topology fixtures/topologies/mana-1node-2c-smt2.topo --node 0 --dynamic-msix --granted 64",
                Expect.prints("0-1\n0\n1\n2\n3\n"));
        // Seed 002: null_blk, submit_queues=2, on the arm64 two-node machine (80 CPUs a node): after the patch a queue per node; before it, CPUs alternate.
        // Issue 27: bnxt's CPUs are the run's cpumask_local_spread(i, 1), 4 5 6 7; 7.3 leaves node 1's 4-7 (NIC-1).
        EXPECTED.put("./numaspread plan --device bnxt --kernel 6.12,7.3 --topology fixtures/kernel-runs/a-2node-2s2c2t-linux-6.12-boot.topo --node 1 --queues 4",
                Expect.exit(0, "Linux 6.12\nrx-tx 0  forced  4\nrx-tx 1  forced  5\nrx-tx 2  forced  6\nrx-tx 3  forced  7\n",
                        "\nLinux 7.3\nrx-tx 0  hint  4  (hint only: the IRQ keeps the default affinity 4-7 until irqbalance or a user applies the hint)\n"));
        EXPECTED.put("./numaspread plan --routine blk-mq-map --kernel 6.12 --topology fixtures/topologies/arm64-2node-160cpu.topo --count 2 --format cpu_list",
                Expect.prints(sysfs(0, 80, 1) + "\n" + sysfs(80, 160, 1) + "\n"));
        EXPECTED.put("./numaspread plan --routine blk-mq-map --kernel 6.1 --topology fixtures/topologies/arm64-2node-160cpu.topo --count 2",
                Expect.prints(lines(0, 160, 1, c -> c + " " + (c % 2))));
        EXPECTED.put("./numaspread plan --routine group-cpus --kernel 6.12 --topology fixtures/topologies/arm64-2node-160cpu.topo --count 2",
                Expect.prints("0-79\n80-159\n"));
        // 89802ca36c96's machine: its commit message gives the old last groups (28-30 ... 37-39); the 7.3.4 run printed 7.3's.
        EXPECTED.put("./numaspread plan --routine group-cpus --kernel 6.18,7.3 --topology fixtures/kernel-runs/cl1-1node-40cpu-cluster4-linux-7.3-boot.topo --count 11",
                Expect.exit(0, "\n0      0-3    4-7    <> differs", "\n7      28-30  36-39  <> differs", "\n8      31-33  8-11   <> differs",
                        "\n9      34-36  0-1    <> differs", "\n10     37-39  2-3    <> differs", "\n11 of 11 groups differ between 6.18 and 7.3\n"));
        // HOP-9 and HOP-10 by hand: node 0's nearest level holding a CPU of 0-47 is 0-23; 6.15 gives its lowest id each time,
        // 7.3 the next above the last answer, from 0 at boot.
        EXPECTED.put("./numaspread plan --routine numa-closest --kernel 6.15,7.3 --topology fixtures/topologies/kunpeng920-4node.topo --cpus 0-47 --cpu 0 --calls 4",
                Expect.exit(0, "\n0     0     1    <> differs", "\n1     0     2    <> differs", "\n2     0     3    <> differs",
                        "\n3     0     4    <> differs", "\n4 of 4 calls differ between 6.15 and 7.3\n"));
        // Seed 001: the pool follows its NAPI from node 0 to node 1 and then serves node 1's pages.
        EXPECTED.put("./numaspread plan --routine page-pool --kernel 6.12 --topology fixtures/topologies/xeon-e5-2603v4-2s.topo --script fixtures/page-pool/seed-001.pp",
                Expect.exit(0, "poll 6: updated the node from 0 to 1", "alloc: served page 3 (node 1) from the page allocator"));
        // A third party beside the model: the Python example answers as the model does (the build needs python3, PythonExampleTest).
        EXPECTED.put("./numaspread plan --routine local-spread --kernel 6.12 --topology fixtures/topologies/kunpeng920-4node.topo --node 2 --count 8 --impl process:'python3 examples/python/spread.py'",
                Expect.exit(0, "queue  model  spread.py (Python example)\n0      48     48\n",
                        "\nevery queue is the same in model and spread.py (Python example)\n"));
        // Races on patho-memless-node (2 nodes x 4 CPUs, SMT2).
        EXPECTED.put("./numaspread races --routine mana-setup-irqs --kernel 6.9 --topology fixtures/topologies/patho-memless-node.topo --node 0",
                Expect.exit(0, "\nno forbidden outcome\n"));
        EXPECTED.put("./numaspread races --routine mana-setup-irqs --kernel 6.9 --topology fixtures/topologies/patho-memless-node.topo --node 0 --variant unlocked | head -20",
                Expect.exit(0, "(FORBIDDEN)"));
        EXPECTED.put("./numaspread races --routine local-spread --kernel 6.1 --topology fixtures/topologies/patho-memless-node.topo --node 0 --count 8",
                Expect.exit(1, "BUG: cpumask_local_spread(", " forbidden interleavings\n"));
        EXPECTED.put("./numaspread races --routine irq-setup --kernel 6.9 --topology fixtures/topologies/patho-memless-node.topo --node 0 --count 8 --pairs",
                Expect.exit(0, "\nno forbidden outcome\n"));
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
        // group_cpus_evenly(4) as the 7.3.4 run printed it with CPU 3 offline: node 1 by cluster, node 0 node-wide.
        EXPECTED.put("./numaspread plan --routine group-cpus --kernel 7.3 --topology fixtures/kernel-runs/cl2-2node-2cl-2c-2t-linux-7.3-offline.topo --count 4 --explain",
                Expect.exit(0, "\n0       12-15 ", "cluster 12-15, whole", "GRP-11 GRP-12 GRP-15", "\n1       8-11 ", "\n2       0-3 ",
                        "node-wide: CPU 3 has no cluster mask (offline)", "GRP-13", "\n3       4-7 "));
        // Seed 003's Kunpeng, row 0: 10 16 32 33; of 48-95 the nearest level of node 0 is within 32 (node 2, 48-71);
        // from state 70 the calls give 71, then none above 71 so the lowest, 48 (HOP-10).
        EXPECTED.put("./numaspread plan --routine numa-closest --kernel 7.3 --topology fixtures/topologies/kunpeng920-4node.topo --cpus 48-95 --cpu 0 --calls 2 --prev 70 --explain",
                Expect.exit(0, "\n0       71 ", "level 3: within distance 32 of node 0, the nearest holding 48-71 of the set; the first above 70",
                        "\n1       48 ", "none above 71, so its lowest", "HOP-5 HOP-10"));
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
            if (marker != null && !block.group(1).contains(marker)) continue;
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
        all.putAll(commands(section(readme, "Plan"), null));
        all.putAll(commands(section(readme, "Races"), null));
        return all;
    }

    @Test
    void wordsAreSplitAsTheShellSplitsThem() {
        assertEquals(List.of("./numaspread", "plan", "--impl", "process:python3 examples/python/spread.py", "|", "head", "-20"),
                words("./numaspread plan  --impl process:'python3 examples/python/spread.py' | head -20"));
        assertEquals(List.of("a", "", "b c"), words("a '' 'b c'"));
    }

    @Test
    void everyCommandOfTheSectionHasAnExpectationAndEveryExpectationIsInTheReadme() throws IOException {
        Map<String, Integer> readme = readmeCommands();
        List<String> problems = new ArrayList<>();
        readme.forEach((c, l) -> { if (!EXPECTED.containsKey(c)) problems.add("README.md:" + l + ": found '" + c + "'; expected an expectation in ReadmeCommandsTest"); });
        for (String c : EXPECTED.keySet()) if (!readme.containsKey(c)) problems.add("ReadmeCommandsTest: found '" + c + "'; expected it in README.md");
        assertEquals(List.of(), problems);
        assertTrue(readme.size() >= 29, "README.md: found " + readme.size() + " commands in the sections; expected at least 29");
    }

    @Test
    @Proves({"AUD-2", "AUD-4", "FMT-15"})
    void everyCommandRunsAsPrintedAndShowsWhatItsCommentSays(@TempDir Path tmp) throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Integer> c : readmeCommands().entrySet()) {
            Expect e = EXPECTED.get(c.getKey());
            if (e == null) continue;   // reported by the test above
            if (c.getKey().contains("python3") && "1".equals(System.getenv("NUMASPREAD_SKIP_PYTHON"))) continue;   // as PythonExampleTest
            String where = "README.md:" + c.getValue() + ": " + c.getKey();
            Shown shown = shell(c.getKey(), tmp);
            if (!e.exits().contains(shown.exit()))
                problems.add(where + "\n  exit " + shown.exit() + "; expected " + new TreeSet<>(e.exits()) + "\n" + shown.out() + shown.err());
            for (String s : e.shows())
                if (!shown.out().contains(s)) problems.add(where + "\n  found no '" + s + "' in:\n" + shown.out() + shown.err());
            if (e.whole().isPresent() && !e.whole().get().equals(shown.out()))
                problems.add(where + "\n  printed:\n" + shown.out() + shown.err() + "\n  expected:\n" + e.whole().get());
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
            for (String w : words.subList(1, words.size())) {
                if (w.startsWith("process:")) {
                    // The program's own command line: its files are the checkout's too.
                    List<String> program = new ArrayList<>();
                    for (String p : w.substring("process:".length()).split(" "))
                        program.add(looksLikeAPath(p) && Files.exists(ROOT.resolve(p)) ? ROOT.resolve(p).toString() : p);
                    args.add("process:" + String.join(" ", program));
                } else args.add(w.startsWith("-") || !looksLikeAPath(w) ? w : path(w, tmp).toString());
            }
            StringWriter out = new StringWriter(), err = new StringWriter();
            int exit = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
            String text = out.toString();
            for (int i = 1; i < stages.length; i++) {
                List<String> pipe = words(stages[i]);
                if (pipe.size() == 3 && pipe.get(0).equals("diff") && pipe.get(1).equals("-")) {
                    exit = text.equals(Files.readString(path(pipe.get(2), tmp))) ? 0 : 1;
                    text = exit == 0 ? "" : "(differs from " + pipe.get(2) + ")\n" + text;
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

    /** The words of {@code command} as the shell splits them: at blanks outside single quotes, the quotes removed. */
    static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder word = null;
        boolean quoted = false;
        for (char c : command.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
                if (word == null) word = new StringBuilder();
            } else if (Character.isWhitespace(c) && !quoted) {
                if (word != null) out.add(word.toString());
                word = null;
            } else {
                if (word == null) word = new StringBuilder();
                word.append(c);
            }
        }
        assertTrue(!quoted, command + ": an unclosed quote");
        if (word != null) out.add(word.toString());
        return out;
    }
}
