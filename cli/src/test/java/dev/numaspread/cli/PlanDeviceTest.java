package dev.numaspread.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code plan --device} (spec/nic.md) on the reference model, on the two-node machine of
 * {@link PlanCommandTest} (node 0 = CPUs 0-3, node 1 = 4-7, every CPU online). Every expected
 * value is worked out by hand from the rules of spec/nic.md.
 */
class PlanDeviceTest {

    record Run(int exit, String out, String err) {}

    /** What a hint leaves on a device of node 1 (NIC-1): the node's CPUs, as the plan says it. */
    static final String HINT_NODE_1 = "(hint only: the IRQ keeps the default affinity 4-7 until irqbalance or a user applies the hint)";

    static Run plan(Path dir, String... args) throws Exception {
        Path topo = dir.resolve("two-nodes.topo");
        Files.writeString(topo, PlanCommandTest.TOPO);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 2];
        all[0] = "--topology";
        all[1] = topo.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return new Run(cl.execute(all), out.toString(), err.toString());
    }

    @Test
    void virtioNetPairsGetConsecutiveGroupsAndTheConfigIrqIsNotSet(@TempDir Path dir) throws Exception {
        // 8 online CPUs, 3 pairs: 2 CPUs each, the first 8 mod 3 = 2 pairs one more (NIC-2).
        Run r = plan(dir, "--device", "virtio-net", "--kernel", "6.12", "--queues", "3");
        assertEquals(0, r.exit(), r.err());
        assertEquals("""
                config  none    -    (not set: the IRQ keeps the default affinity 0-7)
                rx 0    forced  0-2
                tx 0    forced  0-2
                rx 1    forced  3-5
                tx 1    forced  3-5
                rx 2    forced  6-7
                tx 2    forced  6-7
                xps tx 0: 0-2
                xps tx 1: 3-5
                xps tx 2: 6-7
                """, r.out());
        assertEquals("numaspread plan: note: --node not given: the device has no node (NUMA_NO_NODE, -1)\n", r.err());
    }

    @Test
    void bnxtHintsAreMarkedApartFromForcedAffinities(@TempDir Path dir) throws Exception {
        // Local spread from node 1: 4, 5, ...; forced in 6.12, only a hint in 7.3 (NIC-10); XPS deals
        // the spread 4, 5, 6, 7, 0, 1, 2, 3 out over 2 queues (NIC-11).
        Run r = plan(dir, "--device", "bnxt", "--kernel", "6.12,7.3", "--node", "1", "--queues", "2");
        assertEquals(0, r.exit(), r.err());
        assertEquals("Linux 6.12\n"
                + "rx-tx 0  forced  4\nrx-tx 1  forced  5\nxps tx 0: 0,2,4,6\nxps tx 1: 1,3,5,7\n"
                + "\nLinux 7.3\n"
                + "rx-tx 0  hint  4  " + HINT_NODE_1 + "\nrx-tx 1  hint  5  " + HINT_NODE_1 + "\nxps tx 0: 0,2,4,6\nxps tx 1: 1,3,5,7\n", r.out());
        assertEquals("", r.err());
    }

    @Test
    void iceIsForcedIn6_1AHintIn6_12AndForcedAgainIn7_3(@TempDir Path dir) throws Exception {
        // NIC-7: vector v gets CPU v (online), forced in 6.1, only a hint in 6.12; NIC-8: 7.3 forces
        // cpumask_local_spread(v, 0), node 0's CPUs 0 and 1 first, whatever the device's node.
        Run r = plan(dir, "--device", "ice", "--kernel", "6.1,6.12,7.3", "--node", "1", "--queues", "2");
        assertEquals(0, r.exit(), r.err());
        assertEquals("Linux 6.1\nrx-tx 0  forced  0\nrx-tx 1  forced  1\nxps tx 0: 0\nxps tx 1: 1\n"
                + "\nLinux 6.12\nrx-tx 0  hint  0  " + HINT_NODE_1 + "\nrx-tx 1  hint  1  " + HINT_NODE_1 + "\nxps tx 0: 0\nxps tx 1: 1\n"
                + "\nLinux 7.3\nrx-tx 0  forced  0\nrx-tx 1  forced  1\nxps tx 0: 0\nxps tx 1: 1\n", r.out());
    }

    @Test
    void smpAffinityPrintsWhatEachIrqShows(@TempDir Path dir) throws Exception {
        // ena: the management IRQ on CPU 0, I/O IRQ i on CPU id i (NIC-4).
        Run r = plan(dir, "--device", "ena", "--kernel", "6.12", "--queues", "2", "--format", "smp_affinity", "--first-irq", "40");
        assertEquals(0, r.exit(), r.err());
        assertEquals("40: 01\n41: 01\n42: 02\n", r.out());
    }

    @Test
    void tableNamesTheNodeAndWhatAHintLeaves(@TempDir Path dir) throws Exception {
        // i40e: hint cpumask_local_spread(v, NUMA_NO_NODE) = the v-th online CPU; the device on node 1 keeps 4-7 (NIC-9, NIC-1).
        Run r = plan(dir, "--device", "i40e", "--kernel", "7.3", "--node", "1", "--queues", "2", "--format", "table");
        assertEquals(0, r.exit(), r.err());
        String note = "hint only: the IRQ keeps the default affinity 4-7 until irqbalance or a user applies the hint";
        assertEquals("irq      setting  cpus  node  shows  note\n"
                + "rx-tx 0  hint     0     0     4-7    " + note + "\n"
                + "rx-tx 1  hint     1     0     4-7    " + note + "\n"
                + "xps tx 0: 0\nxps tx 1: 1\n", r.out());
        assertEquals("numaspread plan: note: --node 1: the driver does not read the device's node in Linux 7.3; it only decides"
                + " the default affinity of the IRQs it does not force (spec/nic.md NIC-1)\n", r.err());
    }

    @Test
    void jsonHasEveryIrqWithItsSettingAndWhatItShows(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "gve-irqs", "--kernel", "7.3", "--node", "1", "--queues", "1", "--format", "json");
        assertEquals(0, r.exit(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("gve-irqs", j.get("routine").asText());
        // 6.17+: node 1's first CPU for both blocks (NIC-6); the management IRQ is not set.
        assertEquals("tx 0", j.get("irqs").get(0).get("irq").asText());
        assertEquals("4", j.get("irqs").get(0).get("cpus").asText());
        assertEquals("forced", j.get("irqs").get(1).get("setting").asText());
        assertEquals("none", j.get("irqs").get(2).get("setting").asText());
        assertEquals("4-7", j.get("irqs").get(2).get("shows").asText());
        assertEquals("0", j.get("xps").get(0).asText());
    }

    @Test
    void usageErrorsAreOneLineAndExit2(@TempDir Path dir) throws Exception {
        Run neither = plan(dir, "--kernel", "6.12");
        assertEquals(2, neither.exit());
        assertEquals("numaspread plan: expected --routine R or --device D\n", neither.err());
        Run both = plan(dir, "--routine", "local-spread", "--device", "ena", "--kernel", "6.12");
        assertEquals(2, both.exit());
        assertEquals("numaspread plan: --routine local-spread and --device ena: expected one of them\n", both.err());
        Run unknown = plan(dir, "--device", "e1000", "--kernel", "6.12");
        assertEquals("numaspread plan: --device 'e1000': unknown device; expected one of virtio-net, ena, gve, ice, i40e, bnxt\n", unknown.err());
        Run count = plan(dir, "--device", "ice", "--kernel", "6.12", "--count", "2");
        assertEquals(2, count.exit());
        assertEquals("numaspread plan: --count does not apply to --routine ice-irqs (it takes --node, --queues); leave it out\n", count.err());
        Run old = plan(dir, "--device", "ice", "--kernel", "5.15", "--queues", "2");
        assertEquals(2, old.exit());
        assertTrue(old.err().contains("ice-irqs is modelled for 6.1..7.3"), old.err());
        Run svg = plan(dir, "--device", "ice", "--kernel", "6.12", "--format", "svg");
        assertEquals("numaspread plan: --format 'svg': --device prints list, table, json or smp_affinity\n", svg.err());
    }
}
