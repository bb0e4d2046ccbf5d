package dev.numaspread.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code numaspread merge-reports}: the shards of a run ({@code certify --shard K/N}) joined are
 * the whole run; reports of other runs, a shard twice or a missing shard are never a PASS.
 * Certifies with the one-rule kit of {@link ExhaustiveAndShardOptionsTest} (LS-1 over drawn machines).
 */
class MergeReportsCommandTest {

    /** Answers local spread with the machine's lowest possible CPU: wrong where CPU 0 is offline or absent. */
    public static class LowestPossible implements Implementation {
        @Override public String name() { return "lowest possible"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.12")); }
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            int[] out = new int[count];
            java.util.Arrays.fill(out, machine.possible().first());
            return out;
        }
    }

    record Run(int exit, String out, String err) {}

    static Run merge(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new MergeReportsCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    /** Certifies in {@code n} shards into {@code dir/1..n}; returns the folders. */
    static List<String> shards(Path dir, int n, String... args) {
        List<String> out = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            String folder = dir.resolve(String.valueOf(k)).toString();
            List<String> a = new ArrayList<>(List.of(args));
            a.addAll(List.of("--shard", k + "/" + n, "--report", folder));
            ExhaustiveAndShardOptionsTest.certify(a.toArray(String[]::new));
            out.add(folder);
        }
        return out;
    }

    static JsonNode rule(Path report, String id) throws Exception {
        for (JsonNode r : new ObjectMapper().readTree(report.resolve("report.json").toFile()).get("rules"))
            if (r.get("id").asText().equals(id)) return r;
        throw new AssertionError("no rule " + id + " in " + report);
    }

    @Test
    void shardsOfRandomTries_mergeIntoTheWholeRun(@TempDir Path dir) throws Exception {
        String[] run = {"--impl", "model", "--kernel", "6.12", "--tries", "30", "--seed", "0x77"};
        List<String> args = new ArrayList<>(shards(dir, 3, run));
        List<String> whole = new ArrayList<>(List.of(run));
        whole.addAll(List.of("--report", dir.resolve("whole").toString()));
        assertEquals(0, ExhaustiveAndShardOptionsTest.certify(whole.toArray(String[]::new)).exit());
        args.addAll(List.of("--report", dir.resolve("merged").toString()));
        Run m = merge(args.toArray(String[]::new));
        assertEquals(0, m.exit(), m.out() + m.err());
        assertTrue(m.out().contains("PASS LS-1 Offline CPUs are never returned (MUST; kernel 6.12) tries 30 seed 0x77\n"), m.out());
        assertTrue(m.out().contains("; tries 30\n"), "the merged run is the whole run, no shard: " + m.out());
        assertTrue(m.out().contains("note: merged from 3 of 3 shards: 1/3 "), m.out());
        assertEquals(rule(dir.resolve("whole"), "LS-1").get("tries"), rule(dir.resolve("merged"), "LS-1").get("tries"));
        assertEquals(10, rule(dir.resolve("1"), "LS-1").get("tries").asInt());
        for (String f : List.of("report.json", "report.md", "report.html", "junit.xml"))
            assertTrue(Files.exists(dir.resolve("merged").resolve(f)), f);
        assertFalse(rule(dir.resolve("merged"), "LS-1").get("replay").asText().contains("--shard"));
    }

    @Test
    void shardsOfAnExhaustiveRun_coverTheWholeScope(@TempDir Path dir) throws Exception {
        List<String> args = new ArrayList<>(shards(dir, 2, "--impl", "model", "--kernel", "6.12", "--exhaustive", "1"));
        args.addAll(List.of("--report", dir.resolve("merged").toString()));
        Run m = merge(args.toArray(String[]::new));
        assertEquals(0, m.exit(), m.out() + m.err());
        assertTrue(m.out().contains("PASS LS-1 Offline CPUs are never returned (MUST; kernel 6.12) tries 7, 7 cases on 7 machines"), m.out());
        assertEquals(7, rule(dir.resolve("merged"), "LS-1").get("cases").asInt());
    }

    @Test
    void aFailureInOneShard_failsTheMergedRun_withItsCounterexample(@TempDir Path dir) throws Exception {
        List<String> args = new ArrayList<>(shards(dir, 2, "--impl", "java:" + LowestPossible.class.getName(), "--exhaustive", "2"));
        int failing = 0;
        for (String s : args) if (rule(Path.of(s), "LS-1").get("verdict").asText().equals("FAIL")) failing++;
        assertTrue(failing >= 1, "some shard met a machine whose CPU 0 is not online");
        args.addAll(List.of("--report", dir.resolve("merged").toString()));
        Run m = merge(args.toArray(String[]::new));
        assertEquals(1, m.exit(), m.out() + m.err());
        JsonNode r = rule(dir.resolve("merged"), "LS-1");
        assertEquals("FAIL", r.get("verdict").asText());
        assertTrue(r.get("counterexample").get("machine").asText().contains("node 0 cpus:"), r.toString());
    }

    @Test
    void aMissingShard_leavesTheRuleNotVerified(@TempDir Path dir) throws Exception {
        List<String> args = new ArrayList<>(shards(dir, 3, "--impl", "model", "--kernel", "6.12", "--tries", "30").subList(0, 2));
        args.addAll(List.of("--report", dir.resolve("merged").toString()));
        Run m = merge(args.toArray(String[]::new));
        assertEquals(1, m.exit(), m.out() + m.err());
        assertTrue(m.out().contains("NOT-VERIFIED LS-1"), m.out());
        assertTrue(m.out().contains("shard 3/3 not merged: their share of the tries is not covered"), m.out());
    }

    @Test
    void reportsOfDifferentRuns_orAShardTwice_areRefused(@TempDir Path dir) {
        List<String> a = shards(dir.resolve("a"), 2, "--impl", "model", "--kernel", "6.12", "--tries", "30", "--seed", "1");
        List<String> b = shards(dir.resolve("b"), 2, "--impl", "model", "--kernel", "6.12", "--tries", "30", "--seed", "2");
        List<String> c = shards(dir.resolve("c"), 3, "--impl", "model", "--kernel", "6.12", "--tries", "30", "--seed", "1");
        String out = dir.resolve("merged").toString();
        Run seeds = merge(a.get(0), b.get(1), "--report", out);
        assertEquals(2, seeds.exit());
        assertEquals("numaspread merge-reports: " + b.get(1) + "/report.json: seed 0x2 differs from " + a.get(0) + "/report.json's 0x1;"
                + " expected the shards of one run (the same kit version, implementation, claims, seed, shard count N, tries, exhaustive"
                + " scope, budget, rule, release, machine, calls, timeout and waivers)\n", seeds.err());
        Run counts = merge(a.get(0), c.get(1), "--report", out);
        assertEquals(2, counts.exit());
        assertTrue(counts.err().contains(": shard count N 3 differs from "), counts.err());
        Run twice = merge(a.get(0), a.get(0), "--report", out);
        assertEquals(2, twice.exit());
        assertTrue(twice.err().contains(": shard 1/2 again (also "), twice.err());
        assertFalse(Files.exists(dir.resolve("merged").resolve("report.json")), "nothing written");
    }

    @Test
    void whatIsNotAReport_isRefusedNamingTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("report.json"), "{\"suiteVersion\": \"1.0.0\"}");
        Run r = merge(dir.toString(), "--report", dir.resolve("merged").toString());
        assertEquals(2, r.exit());
        assertEquals("numaspread merge-reports: " + dir.resolve("report.json") + ":/claims: missing; expected a report.json of"
                + " numaspread certify, which has it\n", r.err());
        Run none = merge(dir.resolve("nowhere").toString(), "--report", dir.resolve("merged").toString());
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("nowhere: no such file; expected the report.json certify --shard wrote"), none.err());
    }

    /**
     * Found by the second campaign (issue 25): a shard of {@code --rule LS-1} and one of every rule,
     * a {@code --topology} shard and an ordinary one, or shards of other releases or other options,
     * merged into PASS. What defines a run is in report.json, and shards that differ in it are refused.
     */
    @Test
    void shardsThatDifferInWhatDefinesTheRun_areRefused(@TempDir Path dir) throws Exception {
        String[] run = {"--impl", "model", "--kernel", "6.12", "--tries", "30", "--seed", "0x77"};
        List<String> plain = shards(dir.resolve("plain"), 2, run);
        String out = dir.resolve("merged").toString();
        java.util.function.BiFunction<String, String[], String> refusal = (name, extra) -> {
            List<String> a = new ArrayList<>(List.of(run));
            a.addAll(List.of(extra));
            String other = shards(dir.resolve(name), 2, a.toArray(String[]::new)).get(1);
            Run m = merge(plain.get(0), other, "--report", out);
            assertEquals(2, m.exit(), m.out() + m.err());
            return m.err();
        };
        String rule = refusal.apply("rule", new String[]{"--rule", "LS-1"});
        assertTrue(rule.contains("/report.json: rule (--rule) LS-1 differs from "
                + plain.get(0) + "/report.json's every rule; expected the shards of one run"), rule);
        Path machine = dir.resolve("m.topo");
        Files.writeString(machine, "available: 2 nodes (0-1)\nnode 0 cpus: 0 1\nnode 1 cpus: 2 3\nnode distances:\nnode 0 1\n0: 10 20\n1: 20 10\n");
        String topology = refusal.apply("topology", new String[]{"--topology", machine.toString()});
        assertTrue(topology.contains("/report.json: machine (--topology) m sha256:") && topology.contains(" differs from " + plain.get(0)
                + "/report.json's drawn machines; expected"), topology);
        assertTrue(refusal.apply("once", new String[]{"--once"}).contains(": calls made once (--once) differs from "), "once");
        assertTrue(refusal.apply("timeout", new String[]{"--timeout", "5"}).contains(": per-call timeout 5000 ms differs from "), "timeout");
        assertFalse(Files.exists(dir.resolve("merged").resolve("report.json")), "nothing written");
    }

    /** A shard whose rules were emptied (or edited) judges other rules than its siblings: refused, whatever its own summary says. */
    @Test
    void aShardWithoutItsRules_isRefused(@TempDir Path dir) throws Exception {
        List<String> s = shards(dir, 2, "--impl", "model", "--kernel", "6.12", "--tries", "30");
        Path json = Path.of(s.get(1), "report.json");
        ObjectMapper mapper = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode o = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(json.toFile());
        o.putArray("rules");
        o.put("exitCode", 1);
        o.put("levelReached", "none");
        com.fasterxml.jackson.databind.node.ObjectNode counts = (com.fasterxml.jackson.databind.node.ObjectNode) o.get("counts");
        counts.fieldNames().forEachRemaining(k -> { });
        for (String k : List.of("PASS", "FAIL", "ERROR", "NOT-CLAIMED", "WAIVED", "UNEXPECTED-PASS", "NOT-VERIFIED", "INTERNAL-ERROR")) counts.put(k, 0);
        Files.writeString(json, mapper.writeValueAsString(o));
        Run m = merge(s.get(0), s.get(1), "--report", dir.resolve("merged").toString());
        assertEquals(2, m.exit(), m.out() + m.err());
        assertTrue(m.err().contains(json + ": judges other rules than " + s.get(0) + "/report.json (not here: LS-1 (kernel 6.12));"
                + " expected the shards of one run, which judge the same rules"), m.err());
    }
}
