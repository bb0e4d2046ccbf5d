package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The table of spec/README.md says, for each spec file, its first and last rule and how many it
 * holds, and below it how many rules there are in all. A reader trusts those numbers: they are
 * compared with the rules the registry reads from the files themselves.
 */
class SpecIndexTest {

    private static final Pattern ROW = Pattern.compile(
            "^\\| \\[([\\w-]+\\.md)\\]\\([\\w-]+\\.md\\) \\|[^|]*\\| `([A-Z]+-\\d+)` – `([A-Z]+-\\d+)` \\((\\d+)\\) \\|", Pattern.MULTILINE);
    private static final Pattern TOTAL = Pattern.compile("^(\\d+) rules in all;", Pattern.MULTILINE);

    @Test
    void theIndexCountsTheRulesOfEachFileAndInAll() {
        Bundle bundle = Bundle.classpath();
        String index = bundle.read("spec/README.md");
        RuleRegistry registry = RuleRegistry.load(bundle);
        List<String> wrong = new ArrayList<>();
        Matcher row = ROW.matcher(index);
        int rows = 0;
        while (row.find()) {
            rows++;
            String file = "spec/" + row.group(1);
            List<Rule> rules = registry.rules().stream().filter(r -> r.location().startsWith(file + ":")).toList();
            String said = row.group(2) + " – " + row.group(3) + " (" + row.group(4) + ")";
            String is = rules.isEmpty() ? "no rules"
                    : rules.get(0).id() + " – " + rules.get(rules.size() - 1).id() + " (" + rules.size() + ")";
            if (!said.equals(is)) wrong.add(file + ": the index says " + said + "; the file holds " + is);
        }
        assertEquals(true, rows > 10, "spec/README.md: expected the table of spec files, read " + rows + " rows");
        Matcher total = TOTAL.matcher(index);
        assertEquals(true, total.find(), "spec/README.md: expected a line 'N rules in all;'");
        if (Integer.parseInt(total.group(1)) != registry.size())
            wrong.add("spec/README.md: says " + total.group(1) + " rules in all; the spec holds " + registry.size());
        assertEquals(List.of(), wrong);
    }
}
