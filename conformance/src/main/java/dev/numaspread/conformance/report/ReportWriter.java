package dev.numaspread.conformance.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Counterexample;
import dev.numaspread.conformance.certify.Evidence;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.RunOptions;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.conformance.picture.PlacementPicture;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyValidation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a certificate as {@code report.json} (the data), {@code report.md} and a self-contained
 * {@code report.html} (for people; every string escaped) and {@code junit.xml} (for CI: one test
 * case per rule and release).
 */
public final class ReportWriter {
    private ReportWriter() {}

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Writes the four files into {@code dir} (created when missing) and returns their paths. */
    public static List<Path> writeAll(Certificate c, Path dir) {
        try {
            Files.createDirectories(dir);
            Path json = dir.resolve("report.json"), md = dir.resolve("report.md"), html = dir.resolve("report.html"),
                    junit = dir.resolve("junit.xml");
            Files.writeString(json, json(c), StandardCharsets.UTF_8);
            Files.writeString(md, markdown(c), StandardCharsets.UTF_8);
            Files.writeString(html, html(c), StandardCharsets.UTF_8);
            Files.writeString(junit, junit(c), StandardCharsets.UTF_8);
            return List.of(json, md, html, junit);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": cannot write the report: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------ JSON

    public static ObjectNode jsonTree(Certificate c) {
        ObjectNode o = JSON.createObjectNode();
        o.put("suiteVersion", c.suiteVersion());
        o.put("implementation", c.implementation());
        o.put("implSpec", c.implSpec());
        ArrayNode claims = o.putArray("claims");
        for (Claim k : c.claims()) claims.addObject().put("routine", k.routine().id()).put("kernel", k.kernel().toString());
        ObjectNode s = o.putObject("settings");
        s.put("tries", c.settings().tries());
        s.put("seed", "0x" + Long.toHexString(c.settings().seed()));
        s.put("budgetSeconds", c.settings().budget().toSeconds());
        s.put("exhaustive", c.settings().exhaustive());
        s.put("shard", c.settings().shard().toString());
        RunOptions run = c.run();
        if (run.rule().isPresent()) s.put("rule", run.rule().get()); else s.putNull("rule");
        if (run.kernel().isPresent()) s.put("kernel", run.kernel().get().toString()); else s.putNull("kernel");
        if (run.machine().isPresent()) s.put("topology", run.machine().get()); else s.putNull("topology");
        s.put("once", !run.repeatCalls());
        s.put("timeoutMillis", run.callTimeout().toMillis());
        s.set("waivers", JSON.valueToTree(run.waivers()));
        o.put("started", c.started().toString());
        o.put("finished", c.finished().toString());
        o.put("levelReached", c.levelReached());
        o.put("exitCode", c.exitCode());
        ObjectNode counts = o.putObject("counts");
        for (Map.Entry<String, Integer> e : c.counts().entrySet()) counts.put(e.getKey(), e.getValue());
        ArrayNode rules = o.putArray("rules");
        for (RuleResult r : c.results()) {
            ObjectNode j = rules.addObject();
            j.put("id", r.rule());
            j.put("title", r.title());
            j.put("level", r.level());
            j.put("spec", r.location());
            if (r.kernel().isPresent()) j.put("kernel", r.kernel().get().toString()); else j.putNull("kernel");
            j.put("verdict", r.verdict().label());
            j.put("tries", r.tries());
            j.put("judged", r.judged());
            j.put("cases", r.cases());
            j.put("machines", r.machines());
            j.put("seed", "0x" + Long.toHexString(c.settings().seed()));
            verdictDetail(j, r.verdict());
            if (!r.replay().isEmpty()) j.put("replay", r.replay());
            if (!r.graded().isEmpty()) {
                ArrayNode inter = j.putArray("interleavings");
                for (GradedRuns g : r.graded()) {
                    ObjectNode t = inter.addObject();
                    t.put("table", g.table().name());
                    t.put("explorations", g.explorations());
                    t.put("runs", g.runs());
                    ArrayNode outcomes = t.putArray("outcomes");
                    for (OutcomeTable.Row row : g.table().rows()) {
                        ObjectNode x = outcomes.addObject();
                        x.put("outcome", row.outcome().id());
                        x.put("grade", row.grade().name());
                        x.put("count", g.counts().getOrDefault(row.outcome(), 0));
                        if (!row.rule().isEmpty()) x.put("rule", row.rule());
                        x.put("reason", row.reason());
                    }
                }
            }
            ArrayNode ev = j.putArray("evidence");
            for (Evidence e : r.evidence()) {
                ObjectNode x = ev.addObject();
                x.put("source", e.source());
                x.put("outcome", e.outcome().name());
                x.put("tries", e.tries());
                x.put("judged", e.judged());
                x.put("cases", e.cases());
                x.put("machines", e.machines());
                if (!e.reason().isEmpty()) x.put("reason", e.reason());
            }
        }
        o.set("notes", JSON.valueToTree(c.notes()));
        ObjectNode w = o.putObject("workload");
        w.put("calls", c.workload().calls());
        w.put("requests", c.workload().requests());
        w.put("batches", c.workload().batches());
        w.put("seconds", c.workload().total().toMillis() / 1000.0);
        w.put("insideImplementationSeconds", c.workload().insideImplementation().toMillis() / 1000.0);
        w.put("inKitSeconds", c.workload().inKit().toMillis() / 1000.0);
        w.put("kitCpuSeconds", c.workload().kitCpu().toMillis() / 1000.0);
        return o;
    }

    private static void verdictDetail(ObjectNode j, Verdict v) {
        if (v instanceof Verdict.Fail f) {
            j.put("source", f.source());
            counterexample(j.putObject("counterexample"), f.counterexample());
        } else if (v instanceof Verdict.Error e) {
            j.put("source", e.source());
            j.put("reason", e.reason());
        } else if (v instanceof Verdict.InternalError e) {
            j.put("source", e.source());
            j.put("reason", e.reason());
        } else if (v instanceof Verdict.NotVerified n) j.put("reason", n.reason());
        else if (v instanceof Verdict.NotClaimed n) {
            j.put("routine", n.routine());
            if (!n.reason().isEmpty()) j.put("reason", n.reason());
        }
        else if (v instanceof Verdict.Waived w) {
            waiver(j.putObject("waiver"), w.waiver());
            j.put("underlying", w.underlying().label());
            verdictDetail(j, w.underlying());
        } else if (v instanceof Verdict.UnexpectedPass u) waiver(j.putObject("waiver"), u.waiver());
    }

    private static void waiver(ObjectNode o, dev.numaspread.conformance.certify.Waivers.Waiver w) {
        o.put("expires", w.expires().toString());
        o.put("reason", w.reason());
        o.put("location", w.location());
    }

    private static void counterexample(ObjectNode o, Counterexample x) {
        o.put("call", x.call());
        o.put("expected", x.expected());
        o.put("actual", x.actual());
        o.put("hint", x.hint());
        o.put("says", x.says());
        if (x.machine().isPresent()) o.put("machine", x.machine().get()); else o.putNull("machine");
    }

    public static String json(Certificate c) {
        try {
            return JSON.writeValueAsString(printable(jsonTree(c))) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The tree with every string made printable (FMT-19): a reader that prints a value of
     * {@code report.json} to a terminal runs no escape sequence, and the file holds no lone surrogate.
     */
    static JsonNode printable(JsonNode n) {
        if (n instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String k : names) {
                JsonNode v = o.get(k);
                if (v.isTextual()) o.put(k, Printable.ofLines(v.asText()));
                else printable(v);
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual()) a.set(i, a.textNode(Printable.ofLines(a.get(i).asText())));
                else printable(a.get(i));
            }
        }
        return n;
    }

    // ------------------------------------------------------------ Markdown

    public static String markdown(Certificate c) {
        StringBuilder sb = new StringBuilder();
        sb.append("# numaspread certificate: ").append(md(c.implementation())).append("\n\n");
        sb.append("- implementation: `").append(Printable.of(c.implSpec()).replace("`", "'")).append("`\n");
        sb.append("- claims: ").append(c.claims().isEmpty() ? "none" : md(c.claims().toString())).append('\n');
        sb.append("- kit: ").append(md(c.suiteVersion())).append("; ").append(ConsoleCertificate.runShape(c.settings()))
                .append("; seed 0x").append(Long.toHexString(c.settings().seed())).append('\n');
        sb.append("- run: ").append(c.started()).append(" to ").append(c.finished()).append('\n');
        sb.append("- workload: ").append(c.workload().text()).append('\n');
        sb.append("- level reached: **").append(c.levelReached()).append("**; exit code ").append(c.exitCode()).append("\n\n");
        sb.append("| verdict | rule | title | level | kernel | tries |\n|---|---|---|---|---|---|\n");
        for (RuleResult r : c.results())
            sb.append("| ").append(r.verdict().label()).append(" | ").append(md(r.rule())).append(" | ").append(md(r.title()))
                    .append(" | ").append(r.level()).append(" | ").append(r.kernel().map(Object::toString).orElse("")).append(" | ")
                    .append(r.tries()).append(ConsoleCertificate.covered(c, r)).append(" |\n");
        for (RuleResult r : c.results()) {
            if (r.graded().isEmpty() || !r.isAccepted() || r.verdict() instanceof Verdict.Waived) continue;
            sb.append("\n## Interleavings of ").append(md(r.rule())).append(r.kernel().map(k -> " (kernel " + k + ")").orElse(""))
                    .append("\n\n```\n");
            for (GradedRuns g : r.graded()) sb.append(g.render().replace("```", "'''"));
            sb.append("```\n");
        }
        for (RuleResult r : c.results()) {
            if (r.isAccepted() && !(r.verdict() instanceof Verdict.Waived)) continue;
            sb.append("\n## ").append(r.verdict().label()).append(' ').append(md(r.rule())).append(' ').append(md(r.title()))
                    .append("\n\n```\n").append(ConsoleCertificate.render(c, r).replace("```", "'''")).append("```\n");
        }
        if (!c.notes().isEmpty()) {
            sb.append("\n## Notes\n\n");
            for (String n : c.notes()) sb.append("- ").append(md(n)).append('\n');
        }
        return sb.toString();
    }

    private static String md(String s) {
        return Printable.of(s).replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ");
    }

    // ------------------------------------------------------------ HTML

    /**
     * A self-contained page: inline style, no script, every string from the run escaped. Failures
     * come first and NOT-CLAIMED rules are folded away; each row links to its details, and each
     * failure draws its shrunk machine with the expected and the actual placement side by side.
     */
    public static String html(Certificate c) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>numaspread certificate: ")
                .append(esc(c.implementation())).append("</title>\n<style>body{font-family:sans-serif;margin:2em}"
                        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
                        + "pre{background:#f6f6f6;padding:.5em}.PASS{color:#060}.FAIL,.ERROR,.UNEXPECTED-PASS,.INTERNAL-ERROR{color:#a00}"
                        + ".NOT-VERIFIED,.WAIVED{color:#a60}.NOT-CLAIMED{color:#666}section.detail{margin-top:2em}"
                        + "details{margin:1em 0}summary{cursor:pointer}.picture{overflow-x:auto}</style></head><body>\n");
        sb.append("<h1>numaspread certificate: ").append(esc(c.implementation())).append("</h1>\n<ul>");
        sb.append("<li>implementation: <code>").append(esc(c.implSpec())).append("</code></li>");
        sb.append("<li>claims: ").append(esc(c.claims().isEmpty() ? "none" : c.claims().toString())).append("</li>");
        sb.append("<li>kit ").append(esc(c.suiteVersion())).append("; ").append(esc(ConsoleCertificate.runShape(c.settings()))).append("; seed 0x")
                .append(Long.toHexString(c.settings().seed())).append("</li>");
        sb.append("<li>run ").append(esc(c.started().toString())).append(" to ").append(esc(c.finished().toString())).append("</li>");
        sb.append("<li>workload: ").append(esc(c.workload().text())).append("</li>");
        sb.append("<li>level reached: <b>").append(esc(c.levelReached())).append("</b>; exit code ").append(c.exitCode()).append("</li>");
        sb.append("<li>").append(esc(counts(c))).append("</li></ul>\n");
        List<RuleResult> shown = new ArrayList<>(), folded = new ArrayList<>();
        for (RuleResult r : c.results()) (r.verdict() instanceof Verdict.NotClaimed ? folded : shown).add(r);
        shown.sort(Comparator.comparingInt(ReportWriter::rank));
        sb.append("<table id=\"results\">").append(HEAD);
        for (RuleResult r : shown) row(sb, c, r);
        sb.append("</table>\n");
        if (!folded.isEmpty()) {
            sb.append("<details id=\"not-claimed\"><summary>").append(folded.size()).append(" rules NOT-CLAIMED (routines the implementation"
                    + " does not claim)</summary>\n<table>").append(HEAD);
            for (RuleResult r : folded) row(sb, c, r);
            sb.append("</table></details>\n");
        }
        for (RuleResult r : shown) {
            if (r.graded().isEmpty() || !r.isAccepted() || r.verdict() instanceof Verdict.Waived) continue;
            sb.append("<h2>").append(esc("Interleavings of " + r.rule() + r.kernel().map(k -> " (kernel " + k + ")").orElse("")))
                    .append("</h2>\n<pre>");
            for (GradedRuns g : r.graded()) sb.append(esc(g.render()));
            sb.append("</pre>\n");
        }
        for (RuleResult r : shown) {
            if (r.isAccepted() && !(r.verdict() instanceof Verdict.Waived)) continue;
            sb.append("<section class=\"detail\" id=\"").append(anchor(r)).append("\"><h2>")
                    .append(esc(r.verdict().label() + " " + r.rule() + " " + r.title())).append("</h2>\n");
            failedCase(r.verdict()).ifPresent(x -> sb.append(picture(x, r, "p" + anchor(r))));
            sb.append("<pre>").append(esc(ConsoleCertificate.render(c, r))).append("</pre></section>\n");
        }
        if (!c.notes().isEmpty()) {
            sb.append("<h2>Notes</h2><ul>");
            for (String note : c.notes()) sb.append("<li>").append(esc(note)).append("</li>");
            sb.append("</ul>\n");
        }
        return sb.append("</body></html>\n").toString();
    }

    private static final String HEAD = "<tr><th>verdict</th><th>rule</th><th>title</th><th>level</th><th>kernel</th><th>tries</th></tr>\n";

    /** Failures first, then errors and the rest that fail the run, then waived, then passed. */
    private static int rank(RuleResult r) {
        Verdict v = r.verdict();
        if (v instanceof Verdict.Fail) return 0;
        if (!r.isAccepted()) return 1;
        if (v instanceof Verdict.Waived) return 2;
        return 3;
    }

    private static void row(StringBuilder sb, Certificate c, RuleResult r) {
        boolean detailed = !r.isAccepted() || r.verdict() instanceof Verdict.Waived;
        String label = esc(r.verdict().label());
        sb.append("<tr><td class=\"").append(label).append("\">")
                .append(detailed ? "<a href=\"#" + anchor(r) + "\">" + label + "</a>" : label)
                .append("</td><td>").append(esc(r.rule())).append("</td><td>").append(esc(r.title())).append("</td><td>")
                .append(esc(r.level())).append("</td><td>").append(esc(r.kernel().map(Object::toString).orElse("")))
                .append("</td><td>").append(r.tries()).append(esc(ConsoleCertificate.covered(c, r))).append("</td></tr>\n");
    }

    /** The id of a rule's details: {@code r-LS-3-6.12}; only letters, digits, '-' and '.' reach it. */
    static String anchor(RuleResult r) {
        return ("r-" + r.rule() + r.kernel().map(k -> "-" + k).orElse("")).replaceAll("[^A-Za-z0-9.-]", "_");
    }

    private static String counts(Certificate c) {
        List<String> parts = new ArrayList<>();
        c.counts().forEach((k, v) -> { if (v > 0) parts.add(v + " " + k); });
        return String.join(", ", parts);
    }

    private static Optional<Counterexample> failedCase(Verdict v) {
        if (v instanceof Verdict.Fail f) return Optional.of(f.counterexample());
        if (v instanceof Verdict.Waived w) return failedCase(w.underlying());
        return Optional.empty();
    }

    private static final Pattern NODE_ARG = Pattern.compile("node=(-?\\d+)");

    /**
     * The shrunk machine with the expected and the actual placement side by side, when the
     * counterexample has a machine; a placement its text does not spell is left out and said so.
     */
    static String picture(Counterexample x, RuleResult r, String id) {
        if (x.machine().isEmpty()) return "";
        Topology m;
        try {
            m = TopoFormat.read(x.machine().get(), "shrunk.topo", Optional.of(TopologyValidation.Mode.LENIENT)).topology();
        } catch (RuntimeException e) {
            return "<p class=\"picture\">(the shrunk machine could not be drawn: " + esc(String.valueOf(e.getMessage())) + ")</p>\n";
        }
        List<Placement> panels = new ArrayList<>();
        Placement.parse("expected", x.expected(), Placement.setWordOf(x.call())).ifPresent(panels::add);
        Placement.parse("actual", x.actual(), Placement.setWordOf(x.call())).ifPresent(panels::add);
        Matcher node = NODE_ARG.matcher(x.call());
        int n = node.find() ? Integer.parseInt(node.group(1)) : Numa.NUMA_NO_NODE;
        String caption = r.rule() + r.kernel().map(k -> " on Linux " + k).orElse("") + ": " + x.call();
        if (panels.isEmpty()) panels.add(new Placement("the shrunk machine", "queue", List.of()));
        StringBuilder sb = new StringBuilder("<div class=\"picture\">");
        if (panels.size() < 2)
            sb.append("<p>").append(esc(panels.get(0).title().equals("the shrunk machine")
                    ? "The rule describes its answer instead of giving a placement: the machine is drawn alone."
                    : "Only the " + panels.get(0).title() + " placement is a placement; the other side is described in the text below.")).append("</p>");
        sb.append(PlacementPicture.svg(m, n, panels, caption, id));
        return sb.append("</div>\n").toString();
    }

    /**
     * {@code s} made printable ({@link Printable#ofLines}: no control character, noncharacter or
     * lone surrogate, none of which XML 1.0 allows) with the five HTML/XML special characters escaped.
     */
    public static String esc(String text) {
        String s = Printable.ofLines(text);
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(ch);
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------ JUnit XML

    /**
     * One {@code testcase} per result: FAIL as failure, ERROR/UNEXPECTED-PASS/NOT-VERIFIED as error,
     * NOT-CLAIMED as skipped. A certificate that judged nothing and does not exit 0 (a program
     * whose hello was refused, an implementation that claims nothing) is one {@code certify}
     * testcase in error with the notes, so that a CI reading the file sees what the exit code says.
     */
    public static String junit(Certificate c) {
        Map<String, Integer> n = c.counts();
        boolean nothingJudged = c.claimed().isEmpty() && c.exitCode() != 0;
        int failures = n.get("FAIL");
        int errors = n.get("ERROR") + n.get("UNEXPECTED-PASS") + n.get("NOT-VERIFIED") + n.get("INTERNAL-ERROR") + (nothingJudged ? 1 : 0);
        int skipped = n.get("NOT-CLAIMED") + n.get("WAIVED");
        double seconds = Duration.between(c.started(), c.finished()).toMillis() / 1000.0;
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<testsuite name=\"numaspread certify ").append(esc(c.implementation())).append("\" tests=\"")
                .append(c.results().size() + (nothingJudged ? 1 : 0)).append("\" failures=\"").append(failures).append("\" errors=\"").append(errors)
                .append("\" skipped=\"").append(skipped).append("\" time=\"").append(seconds).append("\" timestamp=\"")
                .append(esc(c.started().toString())).append("\">\n");
        for (RuleResult r : c.results()) {
            String name = r.rule() + (r.title().isEmpty() ? "" : " " + r.title()) + r.kernel().map(k -> " [kernel " + k + "]").orElse("");
            sb.append("  <testcase classname=\"numaspread.").append(esc(r.rule().replaceAll("-.*", ""))).append("\" name=\"")
                    .append(esc(name)).append("\">");
            Verdict v = r.verdict();
            String detail = esc(ConsoleCertificate.render(c, r));
            if (v instanceof Verdict.Fail f)
                sb.append("<failure message=\"").append(esc(f.counterexample().actual())).append("\">").append(detail).append("</failure>");
            else if (v instanceof Verdict.Error || v instanceof Verdict.UnexpectedPass || v instanceof Verdict.NotVerified
                    || v instanceof Verdict.InternalError)
                sb.append("<error message=\"").append(esc(v.label())).append("\">").append(detail).append("</error>");
            else if (v instanceof Verdict.NotClaimed || v instanceof Verdict.Waived)
                sb.append("<skipped message=\"").append(esc(v.label())).append("\"/>");
            sb.append("</testcase>\n");
        }
        if (nothingJudged)
            sb.append("  <testcase classname=\"numaspread\" name=\"certify\"><error message=\"no rule judged\">")
                    .append(esc(String.join("\n", c.notes().isEmpty() ? List.of("no claimed rule was judged") : c.notes())))
                    .append("</error></testcase>\n");
        return sb.append("</testsuite>\n").toString();
    }

}
