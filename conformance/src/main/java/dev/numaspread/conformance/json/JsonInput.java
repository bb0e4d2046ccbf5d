package dev.numaspread.conformance.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.numaspread.model.input.InputFile;
import dev.numaspread.model.input.InputText;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;

import java.nio.file.Path;

/**
 * JSON from outside, read as every reader of text is (spec/formats.md FMT-17, FMT-18): a regular
 * file of at most {@link InputFile#MAX_TEXT_BYTES}, UTF-8 without control characters, nested at
 * most {@link #MAX_DEPTH} levels, numbers of at most 100 digits, no key twice in an object (which
 * of two values a reader takes is not JSON's to say). A syntax error is one line,
 * {@code file:line:col: invalid JSON (what the parser found); expected ...}, without the parser's
 * class names.
 */
public final class JsonInput {

    private JsonInput() {}

    /** How deep JSON may nest: {@value} (a topology nests 4 levels). */
    public static final int MAX_DEPTH = 64;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH)
                            .maxNumberLength(100)
                            .maxStringLength(InputFile.MAX_TEXT_BYTES)
                            .build())
                    .build())
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    /**
     * The JSON of {@code file}.
     *
     * @param expected what the file should hold, for messages ({@code "a topology in the JSON form"})
     * @throws InvalidInputException {@code file:line:col: ...; expected ...}
     */
    public static JsonNode read(Path file, String expected) {
        String text = InputText.decode(InputFile.read(file, InputFile.MAX_TEXT_BYTES, expected), file.toString());
        return parse(text, file.toString(), expected);
    }

    /** The JSON of {@code text} (a fixture, a protocol field), named {@code name} in messages. */
    public static JsonNode read(String text, String name, String expected) {
        return parse(InputText.check(text, name), name, expected);
    }

    private static JsonNode parse(String text, String name, String expected) {
        // A parser of our own, so that an error past a limit (no location of its own) still has the parser's position.
        try (com.fasterxml.jackson.core.JsonParser p = MAPPER.createParser(text)) {
            try {
                JsonNode n = MAPPER.readTree(p);
                if (n == null || n.isMissingNode()) throw new InvalidInputException(name + ":1", "no JSON value; expected " + expected);
                if (p.nextToken() != null)
                    throw new InvalidInputException(where(name, p.currentLocation()), "more after the JSON value; expected one value, " + expected);
                return n;
            } catch (JsonProcessingException e) {
                throw new InvalidInputException(where(name, e.getLocation() != null ? e.getLocation() : p.currentLocation()),
                        "invalid JSON (" + parserMessage(e) + "); expected " + expected);
            }
        } catch (java.io.IOException e) {
            throw new InvalidInputException(name, "cannot be read (" + Printable.of(String.valueOf(e.getMessage())) + "); expected " + expected);
        }
    }

    private static String where(String name, com.fasterxml.jackson.core.JsonLocation at) {
        return at == null || at.getLineNr() < 1 ? name : name + ":" + at.getLineNr() + ":" + at.getColumnNr();
    }

    /** The parser's finding on one line, without its source excerpt or class names, at most 200 characters. */
    public static String parserMessage(JsonProcessingException e) {
        String m = e.getOriginalMessage() == null ? "a syntax error" : e.getOriginalMessage();
        int cut = m.indexOf('\n');
        if (cut >= 0) m = m.substring(0, cut);
        m = m.replaceAll(", from `[A-Za-z0-9_.$()]+`", "").replaceAll("\\(for `?[a-z]+(?:\\.[A-Za-z0-9_$]+)+`?\\)", "").replaceAll("`?com\\.fasterxml\\.[A-Za-z0-9_.$]+`?", "the parser").strip();
        m = Printable.of(m);
        return m.length() > 200 ? m.substring(0, 200) + "..." : m;
    }
}
