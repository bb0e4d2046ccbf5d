package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.process.ProcessImplementation;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;

import java.lang.reflect.InvocationTargetException;
import java.time.Duration;

/**
 * The implementation an {@code --impl} value names: {@code model} (the reference model),
 * {@code example} (the bundled example, {@value #EXAMPLE}), {@code java:CLASS} (a class with a
 * public no-argument constructor) or {@code process:CMD} (a program speaking protocol 1, run by
 * {@code /bin/sh -c CMD}).
 */
public final class Implementations {
    private Implementations() {}

    /** The class of the bundled example implementation (module {@code examples}). */
    public static final String EXAMPLE = "dev.numaspread.examples.KernelStyleSpread";

    /**
     * The implementation {@code spec} names; close it after use when it is {@link AutoCloseable}.
     *
     * @throws IllegalArgumentException {@code --impl 'x': ...; expected ...}
     */
    public static Implementation resolve(String spec, Duration requestTimeout) {
        String s = spec.strip();
        if (s.equals("model")) return new ReferenceModel();
        if (s.equals("example")) return load(EXAMPLE, "--impl example: the bundled example " + EXAMPLE);
        if (s.startsWith("java:")) return load(s.substring(5).strip(), "--impl " + s + ": class " + s.substring(5).strip());
        if (s.startsWith("process:")) {
            String cmd = s.substring(8).strip();
            if (cmd.length() >= 2 && (cmd.startsWith("'") && cmd.endsWith("'") || cmd.startsWith("\"") && cmd.endsWith("\"")))
                cmd = cmd.substring(1, cmd.length() - 1);
            if (cmd.isEmpty()) throw new IllegalArgumentException("--impl process: no command; expected process:'CMD'");
            return ProcessImplementation.ofShell(cmd, requestTimeout);
        }
        throw new IllegalArgumentException("--impl '" + spec + "': unknown implementation; expected model, example, java:CLASS or process:'CMD'");
    }

    private static Implementation load(String className, String what) {
        Class<?> c;
        try {
            c = Class.forName(className, true, Thread.currentThread().getContextClassLoader() != null
                    ? Thread.currentThread().getContextClassLoader() : Implementations.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(what + " is not on the class path; expected a class implementing "
                    + Implementation.class.getName() + " (or use --impl model)");
        }
        if (!Implementation.class.isAssignableFrom(c))
            throw new IllegalArgumentException(what + " does not implement " + Implementation.class.getName());
        try {
            return (Implementation) c.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(what + " has no public no-argument constructor; expected one");
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(what + ": its constructor threw " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(what + ": cannot be created: " + e);
        }
    }
}
