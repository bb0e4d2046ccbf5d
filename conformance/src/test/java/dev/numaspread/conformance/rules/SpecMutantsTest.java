package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules and zoo members call wrong behaviours by number ("mutant M8"); docs/mutants.md is where a
 * reader of the repository looks the number up. Every number used in spec/, features/ or the zoo's
 * sources must have its row there.
 */
class SpecMutantsTest {

    private static final Pattern ROW = Pattern.compile("^\\| (M[1-9][0-9]?b?) \\|", Pattern.MULTILINE);

    @Test
    void everyMutantNumberInUseHasItsRowInDocsMutants() throws IOException {
        Path root = Bundle.findCheckout(Path.of("")).orElseThrow(() -> new AssertionError("not inside a checkout"));
        Set<String> rows = new TreeSet<>();
        Matcher r = ROW.matcher(Files.readString(root.resolve("docs/mutants.md")));
        while (r.find()) rows.add(r.group(1));
        assertTrue(rows.size() >= 25, "docs/mutants.md: expected the table of M1 - M25, read " + rows);

        Set<String> missing = new TreeSet<>();
        for (Path dir : List.of(root.resolve("spec"), root.resolve("features"),
                root.resolve("conformance/src/test/java/dev/numaspread/conformance/zoo"))) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(Files::isRegularFile).forEach(f -> {
                    String text = read(f);
                    Matcher m = Pattern.compile("\\bM[1-9][0-9]?b?\\b").matcher(text);
                    while (m.find()) {
                        // a mutant number is followed by a colon, a space, a comma or a closing parenthesis
                        // and stands in prose ("mutant M8", "(M25)", "/** M14: ..."), not in an identifier
                        int end = m.end();
                        if (end < text.length() && ":, )".indexOf(text.charAt(end)) >= 0 && !rows.contains(m.group()))
                            missing.add(m.group() + " (" + root.relativize(f) + ")");
                    }
                });
            }
        }
        assertEquals(Set.of(), missing, "mutant numbers used but without a row in docs/mutants.md");
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
