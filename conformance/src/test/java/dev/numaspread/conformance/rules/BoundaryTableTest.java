package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * spec/boundaries.md says how each boundary of each rule's kernel range is known (a booted kernel,
 * a commit, a merge date). The table is kept complete against the ranges the registry reads: every
 * boundary appears once, no row names a boundary a range does not have, every row says how it is
 * known in one of the four words (booted, commit, merge date, scope), a {@code booted} row names a run that exists in
 * fixtures/kernel-runs/, and the counts the file states are the rows' counts. If this fails after a
 * range changed, add or edit the row of that boundary and say how its release is known.
 */
class BoundaryTableTest {

    static final String FILE = "spec/boundaries.md";
    /** {@code | LS-3 | from 5.10 | commit | evidence | runs |} in the table of range boundaries. */
    static final Pattern ROW = Pattern.compile("^\\| ([A-Z][A-Z0-9]*-\\d+) \\| ((?:from|up to) \\d+\\.\\d+) \\| ([a-z ]+) \\| (.+) \\| (.+) \\|$");
    static final Pattern INSIDE = Pattern.compile("^\\| ([A-Z][A-Z0-9]*-\\d+) \\| (changes at \\d+\\.\\d+) \\| ([a-z ]+) \\| (.+) \\| (.+) \\|$");
    static final Set<String> HOW = Set.of("booted", "commit", "merge date", "scope");
    static final Pattern COUNTS = Pattern.compile("^(\\d+) boundaries: (\\d+) booted, (\\d+) commit, (\\d+) merge date, (\\d+) scope\\.$", Pattern.MULTILINE);
    static final Pattern RUN = Pattern.compile("fixtures/kernel-runs/([\\w.*-]+)");

    record Row(int line, String rule, String edge, String how, String evidence) {}

    static List<Row> rows(String text, Pattern p) {
        List<Row> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = p.matcher(lines[i]);
            if (m.matches()) out.add(new Row(i + 1, m.group(1), m.group(2), m.group(3), m.group(4)));
        }
        return out;
    }

    @Test
    void everyBoundaryOfEveryRangeHasOneRowSayingHowItIsKnown() {
        Bundle bundle = Bundle.classpath();
        RuleRegistry registry = RuleRegistry.load(bundle);
        String text = bundle.read(FILE);
        List<Row> rows = rows(text, ROW);
        assertTrue(rows.size() > 50, FILE + ": expected the table of range boundaries, read " + rows.size() + " rows");

        Map<String, Row> byBoundary = new TreeMap<>();
        List<String> wrong = new ArrayList<>();
        for (Row r : rows) {
            Row first = byBoundary.putIfAbsent(r.rule() + " " + r.edge(), r);
            if (first != null) wrong.add(FILE + ":" + r.line() + ": found " + r.rule() + " " + r.edge() + " again (line " + first.line() + "); expected one row per boundary");
            if (!HOW.contains(r.how())) wrong.add(FILE + ":" + r.line() + ": found how known \"" + r.how() + "\"; expected booted, commit, merge date or scope");
        }
        Set<String> expected = new TreeSet<>();
        for (Rule rule : registry.rules())
            for (String edge : rule.kernels().edges()) {
                expected.add(rule.id() + " " + edge);
                if (!byBoundary.containsKey(rule.id() + " " + edge))
                    wrong.add(FILE + ": found no row for " + rule.id() + " " + edge + " (" + rule.location() + ", kernels: "
                            + rule.kernels() + "); expected one saying how that release is known");
            }
        for (Map.Entry<String, Row> e : byBoundary.entrySet())
            if (!expected.contains(e.getKey()))
                wrong.add(FILE + ":" + e.getValue().line() + ": found " + e.getKey() + ", which no range has; expected the boundaries of "
                        + e.getValue().rule() + "'s kernels: " + registry.byId(e.getValue().rule()).map(r -> r.kernels().edges().toString()).orElse("(no such rule)"));
        assertEquals(List.of(), wrong);
    }

    @Test
    void aBootedRowNamesARunWeHold() {
        Bundle bundle = Bundle.classpath();
        String text = bundle.read(FILE);
        List<String> runs = bundle.list("fixtures/kernel-runs", ".json");
        List<String> wrong = new ArrayList<>();
        List<Row> all = new ArrayList<>(rows(text, ROW));
        all.addAll(rows(text, INSIDE));
        for (Row r : all) {
            if (!r.how().equals("booted")) continue;
            Matcher m = RUN.matcher(r.evidence());
            boolean named = false;
            while (m.find()) {
                Pattern glob = Pattern.compile(m.group(1).replace(".", "\\.").replace("*", ".*"));
                if (runs.stream().anyMatch(f -> glob.matcher(f).matches())) named = true;
                else wrong.add(FILE + ":" + r.line() + ": found fixtures/kernel-runs/" + m.group(1) + "; expected a run that exists");
            }
            if (!named) wrong.add(FILE + ":" + r.line() + ": found a booted row without a run; expected fixtures/kernel-runs/NAME");
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theStatedCountsAreTheRowsCounts() {
        String text = Bundle.classpath().read(FILE);
        List<Row> rows = rows(text, ROW);
        Matcher m = COUNTS.matcher(text);
        assertTrue(m.find(), FILE + ": expected a line 'N boundaries: B booted, C commit, M merge date, S scope.'");
        long booted = rows.stream().filter(r -> r.how().equals("booted")).count();
        long commit = rows.stream().filter(r -> r.how().equals("commit")).count();
        long merge = rows.stream().filter(r -> r.how().equals("merge date")).count();
        long scope = rows.stream().filter(r -> r.how().equals("scope")).count();
        assertEquals(rows.size() + " boundaries: " + booted + " booted, " + commit + " commit, " + merge + " merge date, " + scope + " scope.", m.group());
    }

    /** {@code | NIC-4 | ena | hardware only: ... |} in the table of what the NIC rules rest on. */
    static final Pattern NIC_ROW = Pattern.compile("^\\| (NIC-\\d+) \\| ([^|]+) \\| ([^|]+) \\|$");

    /**
     * Issue 27: every rule of spec/nic.md says what it rests on, a booted kernel (naming runs we
     * hold) or, for a driver QEMU cannot emulate, the source read alone; no other rule is listed.
     */
    @Test
    void everyNicRuleSaysWhetherItWasBootedOrRestsOnTheSourceRead() {
        Bundle bundle = Bundle.classpath();
        RuleRegistry registry = RuleRegistry.load(bundle);
        String text = bundle.read(FILE);
        List<String> runs = bundle.list("fixtures/kernel-runs", ".json");
        Set<String> listed = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = NIC_ROW.matcher(lines[i]);
            if (!m.matches()) continue;
            String where = FILE + ":" + (i + 1) + ": ";
            if (!listed.add(m.group(1))) wrong.add(where + "found " + m.group(1) + " again; expected one row per NIC rule");
            String restsOn = m.group(3);
            if (restsOn.startsWith("booted")) {
                Matcher run = RUN.matcher(restsOn);
                if (!run.find()) wrong.add(where + "found a booted rule without a run; expected fixtures/kernel-runs/NAME");
                else if (runs.stream().noneMatch(f -> f.startsWith(run.group(1).replace("*", ""))))
                    wrong.add(where + "found fixtures/kernel-runs/" + run.group(1) + "; expected a run that exists");
            } else if (!restsOn.startsWith("hardware only: the source read alone"))
                wrong.add(where + "found '" + restsOn + "'; expected 'booted...' or 'hardware only: the source read alone...'");
        }
        Set<String> nic = new TreeSet<>();
        for (Rule r : registry.rules()) if (r.id().startsWith("NIC-")) nic.add(r.id());
        assertTrue(nic.size() >= 11, "spec/nic.md: read " + nic);
        assertEquals(nic, listed, FILE + ": the table of what the NIC rules rest on");
        assertEquals(List.of(), wrong);
    }

    @Test
    void aChangeInsideARangeNamesARuleAndSaysHowItIsKnown() {
        Bundle bundle = Bundle.classpath();
        RuleRegistry registry = RuleRegistry.load(bundle);
        List<String> wrong = new ArrayList<>();
        List<Row> inside = rows(bundle.read(FILE), INSIDE);
        assertTrue(inside.size() >= 5, FILE + ": expected the table of changes inside a range, read " + inside.size() + " rows");
        for (Row r : inside) {
            if (registry.byId(r.rule()).isEmpty()) wrong.add(FILE + ":" + r.line() + ": found rule " + r.rule() + "; expected a rule of spec/");
            if (!HOW.contains(r.how())) wrong.add(FILE + ":" + r.line() + ": found how known \"" + r.how() + "\"; expected booted, commit, merge date or scope");
        }
        assertEquals(List.of(), wrong);
    }
}
