package dev.numaspread.conformance.spi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SPI is documented where a Java developer looks (issue 12): every public method of
 * {@link Implementation}, {@link PagePoolSession} and {@link Claim} has a Javadoc comment that
 * names each argument ({@code @param}), the answer's shape ({@code @return}), the errors
 * ({@code @throws}) and a one-line example; {@link Implementation}'s routines also say what
 * "none" is, or that there is none. Read from the sources, matched to the compiled methods by
 * name and parameter names (the build compiles with {@code -parameters}).
 */
class SpiJavadocTest {

    static final Path SPI = Path.of("src", "main", "java", "dev", "numaspread", "conformance", "spi");

    /** A documented declaration: its comment, method name, parameter names and their types' simple names. */
    record Declaration(String javadoc, String name, List<String> parameters, List<String> types, int line) {}

    static final Pattern DECLARATION = Pattern.compile(
            "/\\*\\*(?<doc>(?:(?!\\*/).)*?)\\*/\\s*(?:@\\w+\\s+)*(?:(?:public|static|default)\\s+)*"
                    + "(?<type>[\\w.<>\\[\\], ?]+?)\\s+(?<name>\\w+)\\s*\\((?<params>[^)]*)\\)", Pattern.DOTALL);

    static List<Declaration> declarations(String source) {
        List<Declaration> out = new ArrayList<>();
        Matcher m = DECLARATION.matcher(source);
        while (m.find()) {
            if (m.group("type").matches(".*\\b(class|interface|record|enum)\\b.*") || m.group("type").equals("new")) continue;
            List<String> names = new ArrayList<>(), types = new ArrayList<>();
            int depth = 0;
            StringBuilder current = new StringBuilder();
            for (char c : (m.group("params") + ",").toCharArray()) {
                if (c == '<') depth++;
                if (c == '>') depth--;
                if (c == ',' && depth == 0) {
                    String p = current.toString().strip();
                    if (!p.isEmpty()) {
                        names.add(p.substring(p.lastIndexOf(' ') + 1));
                        String type = p.substring(0, p.lastIndexOf(' ')).strip().replaceAll("<.*>", "");
                        types.add(type.substring(type.lastIndexOf('.') + 1));
                    }
                    current.setLength(0);
                } else current.append(c);
            }
            int line = source.substring(0, m.start("name")).split("\n", -1).length;
            out.add(new Declaration(m.group("doc"), m.group("name"), names, types, line));
        }
        return out;
    }

    static List<String> problems(Class<?> type, boolean routines) throws IOException {
        Path file = SPI.resolve(type.getSimpleName() + ".java");
        List<Declaration> documented = declarations(Files.readString(file));
        List<String> problems = new ArrayList<>();
        List<Method> methods = Arrays.stream(type.getDeclaredMethods())
                .filter(x -> Modifier.isPublic(x.getModifiers()) && !x.isSynthetic())
                .filter(x -> !(type.isRecord() && x.getParameterCount() == 0 && isComponent(type, x.getName())))
                .filter(x -> !(type.isRecord() && List.of("equals", "hashCode").contains(x.getName())))
                .toList();
        assertTrue(methods.size() >= (type == Implementation.class ? 18 : 1), type + ": found " + methods.size() + " methods");
        for (Method method : methods) {
            List<String> names = Arrays.stream(method.getParameters()).map(Parameter::getName).toList();
            List<String> types = Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).toList();
            assertTrue(names.stream().noneMatch(n -> n.matches("arg\\d+")), "compiled without -parameters: " + method);
            Declaration d = documented.stream().filter(x -> x.name().equals(method.getName()) && x.parameters().equals(names)
                            && x.types().equals(types))
                    .findFirst().orElse(null);
            String where = file + ": " + method.getName() + names.toString().replace('[', '(').replace(']', ')');
            if (d == null) {
                problems.add(where + ": found no Javadoc comment; expected one");
                continue;
            }
            where = file + ":" + d.line() + ": " + method.getName();
            for (String n : names)
                if (!Pattern.compile("@param\\s+" + n + "\\s+\\S").matcher(d.javadoc()).find())
                    problems.add(where + ": found no '@param " + n + "'; expected every argument described");
            if (method.getReturnType() != void.class && !d.javadoc().contains("@return "))
                problems.add(where + ": found no '@return'; expected the answer's shape");
            if (!d.javadoc().contains("@throws ") && method.getParameterCount() > 0)
                problems.add(where + ": found no '@throws'; expected the errors");
            if (!Pattern.compile("<p>Example: [^@]*\\{@code ").matcher(d.javadoc()).find())
                problems.add(where + ": found no '<p>Example: ... {@code ...}'; expected a one-line example");
            if (routines && method.getParameterCount() > 0 && !d.javadoc().contains("\"none\"") && !d.javadoc().contains("empty"))
                problems.add(where + ": found neither \"none\" nor empty; expected what the answer is when there is none");
        }
        return problems;
    }

    static boolean isComponent(Class<?> record, String name) {
        return Arrays.stream(record.getRecordComponents()).anyMatch(c -> c.getName().equals(name));
    }

    @Test
    void everyMethodOfImplementationIsDocumentedWithArgumentsAnswerNoneErrorsAndExample() throws IOException {
        assertEquals(List.of(), problems(Implementation.class, true));
    }

    @Test
    void pagePoolSessionAndClaimAreDocumentedToo() throws IOException {
        List<String> problems = new ArrayList<>(problems(PagePoolSession.class, false));
        problems.addAll(problems(Claim.class, false));
        assertEquals(List.of(), problems);
    }

    @Test
    void aMethodWithoutItsParamOrExampleIsFound() {
        String source = """
                /**
                 * The CPU.
                 *
                 * @param kernel the release
                 * @return a CPU
                 */
                default int cpu(KernelRelease kernel, Topology machine) { return 0; }
                """;
        List<Declaration> d = declarations(source);
        assertEquals(List.of("kernel", "machine"), d.get(0).parameters());
        assertEquals(List.of("KernelRelease", "Topology"), d.get(0).types());
        assertEquals("cpu", d.get(0).name());
        assertEquals(7, d.get(0).line());
        assertTrue(!Pattern.compile("@param\\s+machine\\s+\\S").matcher(d.get(0).javadoc()).find());
    }
}
