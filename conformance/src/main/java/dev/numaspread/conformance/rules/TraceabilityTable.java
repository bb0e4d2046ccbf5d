package dev.numaspread.conformance.rules;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The coverage as a table: one row per rule with its level, kernels, spec line and what proves
 * it. Text for a terminal, Markdown for a review, JSON for tools.
 */
public final class TraceabilityTable {
    private TraceabilityTable() {}

    /** An aligned text table; counts of scenarios, checks and tests, then the problems. */
    public static String text(Coverage c) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"rule", "level", "kernels", "spec", "scenarios", "checks", "tests", "title"});
        for (Coverage.Row r : c.rows())
            rows.add(new String[] {r.rule().id(), r.rule().level().name(), r.rule().kernels().toString(), r.rule().location(),
                    Integer.toString(r.scenarios().size()), Integer.toString(r.checks().size()),
                    c.testsScanned() ? Integer.toString(r.tests().size()) : "?", r.rule().title()});
        int[] width = new int[8];
        for (String[] row : rows) for (int i = 0; i < row.length; i++) width[i] = Math.max(width[i], row[i].length());
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                boolean number = i >= 4 && i <= 6;
                String cell = number ? " ".repeat(width[i] - row[i].length()) + row[i] : row[i];
                line.append(cell);
                if (i < row.length - 1) line.append(number ? "" : " ".repeat(width[i] - row[i].length())).append("  ");
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        out.append(footer(c));
        return out.toString();
    }

    /** A Markdown table listing every scenario, check and test by name and place. */
    public static String markdown(Coverage c) {
        StringBuilder out = new StringBuilder();
        out.append("| rule | level | kernels | spec | scenarios | checks and tests |\n");
        out.append("|---|---|---|---|---|---|\n");
        for (Coverage.Row r : c.rows()) {
            List<String> proofs = new ArrayList<>();
            for (Evidence e : r.checks()) proofs.add("check `" + e.name() + "`");
            for (Evidence e : r.tests()) proofs.add("test `" + e.name() + "` (" + e.where() + ")");
            out.append("| ").append(r.rule().id()).append(' ').append(cell(r.rule().title()))
                    .append(" | ").append(r.rule().level())
                    .append(" | ").append(cell(r.rule().kernels().toString()))
                    .append(" | ").append(r.rule().location())
                    .append(" | ").append(String.join("<br>", r.scenarios().stream().map(e -> cell(e.name()) + " (" + e.where() + ")").toList()))
                    .append(" | ").append(String.join("<br>", proofs.stream().map(TraceabilityTable::cell).toList()))
                    .append(" |\n");
        }
        out.append('\n').append(footer(c));
        return out.toString();
    }

    /** The whole coverage as JSON: {@code {"rules":[...], "problems":[...]}}. */
    public static String json(Coverage c) {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        ArrayNode rules = root.putArray("rules");
        for (Coverage.Row r : c.rows()) {
            ObjectNode o = rules.addObject();
            o.put("id", r.rule().id());
            o.put("title", r.rule().title());
            o.put("level", r.rule().level().name());
            o.put("kernels", r.rule().kernels().toString());
            o.put("sources", r.rule().sources());
            o.put("spec", r.rule().location());
            evidence(o.putArray("scenarios"), r.scenarios());
            evidence(o.putArray("checks"), r.checks());
            if (c.testsScanned()) evidence(o.putArray("tests"), r.tests());
        }
        root.put("testsScanned", c.testsScanned());
        root.set("problems", mapper.valueToTree(c.problems()));
        try {
            return mapper.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("model invariant broken: a JSON tree could not be written", e);
        }
    }

    private static void evidence(ArrayNode into, List<Evidence> list) {
        for (Evidence e : list) into.addObject().put("name", e.name()).put("where", e.where());
    }

    private static String footer(Coverage c) {
        long proved = c.rows().stream().filter(Coverage.Row::isProved).count();
        StringBuilder out = new StringBuilder();
        out.append(c.rows().size()).append(" rules, ").append(proved).append(" proved by a scenario, check or test");
        if (!c.testsScanned()) out.append(" (test sources not found: tests not counted)");
        out.append('\n');
        if (!c.problems().isEmpty()) {
            out.append(c.problems().size()).append(c.problems().size() == 1 ? " problem:\n" : " problems:\n");
            for (String p : c.problems()) out.append("  ").append(p).append('\n');
        }
        return out.toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
