package dev.numaspread.conformance.rules;

import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RuleRegistryTest {

    private static TreeMap<String, String> files(String... pathThenText) {
        TreeMap<String, String> m = new TreeMap<>();
        for (int i = 0; i < pathThenText.length; i += 2) m.put(pathThenText[i], pathThenText[i + 1]);
        return m;
    }

    private static List<String> problems(String... pathThenText) {
        return assertThrows(InvalidSpecException.class, () -> RuleRegistry.parse(files(pathThenText))).problems();
    }

    @Proves("RULE-1")
    @Test
    void RULE_1_headingGivesIdTitleLevelKernelsSourcesAndPlace() {
        RuleRegistry r = RuleRegistry.parse(files("spec/local-spread.md", """
                # Local spread

                ## Hop rings

                ### LS-3 Local CPUs come first
                level: EXACT; kernels: 4.1-5.8, 5.11-6.2; sources: seed 000 (the mail), commit 406d394abfcd "cpumask: improve on cpumask_local_spread() locality"

                The statement.

                *Example:*
                ```
                ### LS-9 not a rule: inside a fence
                ```
                ### LS-4 Remote CPUs follow by distance ###
                level: MUST; kernels: all; sources: seed 003
                """));
        assertEquals(List.of("LS-3", "LS-4"), r.rules().stream().map(Rule::id).toList());
        Rule ls3 = r.byId("LS-3").orElseThrow();
        assertEquals("Local CPUs come first", ls3.title());
        assertEquals(Level.EXACT, ls3.level());
        assertEquals("4.1-5.8, 5.11-6.2", ls3.kernels().toString());
        assertEquals("seed 000 (the mail), commit 406d394abfcd \"cpumask: improve on cpumask_local_spread() locality\"", ls3.sources());
        assertEquals("spec/local-spread.md:5", ls3.location());
        assertTrue(ls3.text().startsWith("The statement."), ls3.text());
        assertTrue(ls3.text().contains("### LS-9 not a rule"), "the fenced example belongs to the rule text");
        assertEquals("Remote CPUs follow by distance", r.byId("LS-4").orElseThrow().title());
        assertEquals("spec/local-spread.md:14", r.byId("LS-4").orElseThrow().location());
        assertFalse(r.contains("LS-9"));
    }

    @Proves("RULE-1")
    @Test
    void RULE_1_readmeAndGlossaryDefineNoRulesAndOrdinaryHeadingsAreIgnored() {
        RuleRegistry r = RuleRegistry.parse(files(
                "spec/README.md", "### LS-1 Example in the format description\nlevel: MUST; kernels: all; sources: x\n",
                "spec/glossary.md", "### CPU-less node\nA node without online CPUs.\n",
                "spec/protocol.md", "### hello\nThe first request.\n### PROTO-1 The first request is hello\nlevel: MUST; kernels: all; sources: DESIGN\n"));
        assertEquals(List.of("PROTO-1"), r.rules().stream().map(Rule::id).toList());
    }

    @Proves("RULE-1")
    @Test
    void RULE_1_misspeltIdsAndMissingTitlesAreErrors() {
        assertEquals(List.of(
                "spec/x.md:1: found heading \"### ls-3 Lower case\"; expected \"### ID Title\" with an id such as LS-3 (upper-case letters, a dash, a number from 1)",
                "spec/x.md:3: found heading \"### LS-03 Leading zero\"; expected \"### ID Title\" with an id such as LS-3 (upper-case letters, a dash, a number from 1)",
                "spec/x.md:5: found heading \"### LS_3 Underscore\"; expected \"### ID Title\" with an id such as LS-3 (upper-case letters, a dash, a number from 1)",
                "spec/x.md:7: found rule LS-3 without a title; expected \"### LS-3 Title\""),
                problems("spec/x.md", """
                        ### ls-3 Lower case
                        level: MUST; kernels: all; sources: s
                        ### LS-03 Leading zero
                        level: MUST; kernels: all; sources: s
                        ### LS_3 Underscore
                        level: MUST; kernels: all; sources: s
                        ### LS-3
                        level: MUST; kernels: all; sources: s
                        """));
    }

    @Proves("RULE-2")
    @Test
    void RULE_2_everyMalformedLevelLineIsReportedWithFileAndLine() {
        assertEquals(List.of(
                "spec/x.md:2: found level \"MAY\" for A-1; expected MUST, EXACT or SHOULD",
                "spec/x.md:4: A-2: found \"6.x\" in kernels \"6.x\"; expected all, none, X.Y, X.Y+ or X.Y-A.B, separated by commas",
                "spec/x.md:6: A-3: found \"6.2-4.1\" in kernels \"6.2-4.1\", a range that ends before it starts; expected X.Y-A.B with X.Y <= A.B",
                "spec/x.md:8: found no sources for A-4; expected seeds, commits (id and title) or kernel runs, e.g. seed 000, commit 406d394abfcd \"...\"",
                "spec/x.md:10: found \"level MUST, kernels all, sources s\" after the heading of A-5; expected the line \"level: MUST | EXACT | SHOULD; kernels: ...; sources: ...\"",
                "spec/x.md:12: found \"### A-7 Next rule\" after the heading of A-6; expected the line \"level: MUST | EXACT | SHOULD; kernels: ...; sources: ...\"",
                "spec/x.md:14: found the end of the file after the heading of A-8; expected the line \"level: MUST | EXACT | SHOULD; kernels: ...; sources: ...\""),
                problems("spec/x.md", String.join("\n",
                        "### A-1 One", "level: MAY; kernels: all; sources: s",
                        "### A-2 Two", "level: MUST; kernels: 6.x; sources: s",
                        "### A-3 Three", "level: MUST; kernels: 6.2-4.1; sources: s",
                        "### A-4 Four", "level: MUST; kernels: all; sources:",
                        "### A-5 Five", "level MUST, kernels all, sources s",
                        "### A-6 Six",
                        "### A-7 Next rule", "level: SHOULD; kernels: none; sources: s",
                        "### A-8 Eight", "")));
    }

    @Proves("RULE-2")
    @Test
    void RULE_2_blankLinesMayStandBetweenHeadingAndLevelLine() {
        RuleRegistry r = RuleRegistry.parse(files("spec/x.md", "### A-1 One\n\nlevel: SHOULD; kernels: none; sources: seed 003 (the 2020 proposal)\n"));
        assertEquals(Level.SHOULD, r.byId("A-1").orElseThrow().level());
        assertTrue(r.byId("A-1").orElseThrow().kernels().isNone());
    }

    @Proves("RULE-2")
    @Test
    void RULE_2_sourcesOutsideTheRepositoryAreErrors() {
        String expected = "; expected sources a reader can reach from the repository or the kernel's history: a seed, a commit"
                + " (id and title), a kernel file and function at a release, a fixture or a mailing-list thread";
        assertEquals(List.of(
                "spec/x.md:2: found \"research/kernel-semantics.md\" in the sources of A-1" + expected,
                "spec/x.md:4: found \"research §7.2\" in the sources of A-2" + expected,
                "spec/x.md:6: found \"Research §12\" in the sources of A-3" + expected),
                problems("spec/x.md", String.join("\n",
                        "### A-1 One", "level: MUST; kernels: all; sources: seed 004, research/kernel-semantics.md §8.2",
                        "### A-2 Two", "level: MUST; kernels: 6.3+; sources: commit 6a6dcae8f486 \"blk-mq: ...\", research §7.2",
                        "### A-3 Three", "level: MUST; kernels: all; sources: Research §12(i)", "")));
        RuleRegistry r = RuleRegistry.parse(files("spec/x.md", String.join("\n",
                "### A-4 Four", "level: MUST; kernels: 6.12; sources: mm/page_alloc.c find_next_best_node() (6.12),"
                        + " fixtures/kernel-runs (`a-2node-2s2c2t-linux-6.12-boot`)", "")));
        assertTrue(r.contains("A-4"), "a kernel file at a release and a fixture are sources a reader can reach");
    }

    @Proves("RULE-3")
    @Test
    void RULE_3_rangesIncludeTheirEndsAndNothingElse() {
        KernelRange r = KernelRange.parse("4.1-5.8, 5.11-6.2, 6.7");
        assertTrue(r.includes(KernelRelease.of(4, 1)));
        assertTrue(r.includes(KernelRelease.of(5, 8)));
        assertFalse(r.includes(KernelRelease.of(5, 9)));
        assertFalse(r.includes(KernelRelease.of(5, 10)));
        assertTrue(r.includes(KernelRelease.of(5, 11)));
        assertTrue(r.includes(KernelRelease.of(6, 2)));
        assertFalse(r.includes(KernelRelease.of(6, 3)));
        assertFalse(r.includes(KernelRelease.of(6, 6)));
        assertTrue(r.includes(KernelRelease.of(6, 7)));
        assertFalse(r.includes(KernelRelease.of(6, 8)));
        assertFalse(r.includes(KernelRelease.of(4, 0)));
        KernelRange plus = KernelRange.parse("6.3+ (hop rings)");
        assertFalse(plus.includes(KernelRelease.of(6, 2)));
        assertTrue(plus.includes(KernelRelease.of(6, 3)));
        assertTrue(plus.includes(KernelRelease.of(7, 0)));
        assertTrue(KernelRange.parse("all").includes(KernelRelease.of(4, 1)));
        assertFalse(KernelRange.parse("none").includes(KernelRelease.of(6, 12)));
    }

    @Proves("RULE-5")
    @Test
    void RULE_5_anIdDefinedTwiceIsAnErrorAtTheSecondHeading() {
        assertEquals(List.of("spec/b.md:3: found rule LS-3 a second time (first at spec/a.md:1); expected each rule id once:"
                        + " ids are permanent, give a new rule a new number"),
                problems("spec/a.md", "### LS-3 One\nlevel: MUST; kernels: all; sources: s\n",
                        "spec/b.md", "## B\n\n### LS-3 Two\nlevel: MUST; kernels: all; sources: s\n"));
    }
}
