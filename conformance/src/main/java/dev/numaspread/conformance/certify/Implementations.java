package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.process.ProcessImplementation;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;

import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The implementation an {@code --impl} value names: {@code model} (the reference model),
 * {@code example} (the bundled example, {@value #EXAMPLE}), {@code java:CLASS} (a class with a
 * public no-argument constructor) or {@code process:CMD} (a program speaking spec/protocol.md, run by
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
        return resolve(spec, requestTimeout, List.of());
    }

    /**
     * The implementation {@code spec} names, a {@code java:CLASS} looked up in {@code classPath}
     * (jars and class folders) before the kit's own class path.
     *
     * @throws IllegalArgumentException {@code --impl 'x': ...; expected ...}, or a class path entry that does not exist
     */
    public static Implementation resolve(String spec, Duration requestTimeout, List<Path> classPath) {
        String s = spec.strip();
        if (s.equals("model")) return new ReferenceModel();
        if (s.equals("example")) return load(EXAMPLE, "--impl example: the bundled example " + EXAMPLE, loader(List.of()));
        if (s.startsWith("java:"))
            return load(s.substring(5).strip(), "--impl " + s + ": class " + s.substring(5).strip(), loader(classPath));
        if (s.startsWith("process:")) {
            String cmd = s.substring(8).strip();
            if (cmd.length() >= 2 && (cmd.startsWith("'") && cmd.endsWith("'") || cmd.startsWith("\"") && cmd.endsWith("\"")))
                cmd = cmd.substring(1, cmd.length() - 1);
            if (cmd.isEmpty()) throw new IllegalArgumentException("--impl process: no command; expected process:'CMD'");
            return ProcessImplementation.ofShell(cmd, requestTimeout);
        }
        throw new IllegalArgumentException("--impl '" + spec + "': unknown implementation; expected model, example, java:CLASS or process:'CMD'");
    }

    /**
     * The class path entries of {@code text} ({@code :}-separated, as {@code NUMASPREAD_CLASSPATH}
     * and {@code --class-path} give them), absolute, resolved against the current folder.
     *
     * @throws IllegalArgumentException an entry that does not exist
     */
    public static List<Path> classPath(String text) {
        List<Path> out = new ArrayList<>();
        for (String entry : text.split(java.io.File.pathSeparator)) {
            if (entry.isBlank()) continue;
            Path p = Path.of(entry.strip()).toAbsolutePath().normalize();
            if (!Files.exists(p))
                throw new IllegalArgumentException("class path entry " + entry.strip() + " (" + p + ") does not exist;"
                        + " expected a jar or a folder of classes");
            out.add(p);
        }
        return List.copyOf(out);
    }

    private static ClassLoader loader(List<Path> classPath) {
        ClassLoader kit = Thread.currentThread().getContextClassLoader() != null
                ? Thread.currentThread().getContextClassLoader() : Implementations.class.getClassLoader();
        if (classPath.isEmpty()) return kit;
        URL[] urls = new URL[classPath.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = classPath.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("class path entry " + classPath.get(i) + ": not a file path; expected a jar or a folder");
            }
        }
        // Never closed: the implementation's classes are used until the JVM ends.
        return new URLClassLoader("numaspread-implementation", urls, kit);
    }

    private static Implementation load(String className, String what, ClassLoader loader) {
        Class<?> c;
        try {
            c = Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(what + " is not on the class path; expected a class implementing "
                    + Implementation.class.getName() + " in a jar or class folder of --class-path or NUMASPREAD_CLASSPATH"
                    + " (or use --impl model)");
        } catch (LinkageError e) {
            throw new IllegalArgumentException(what + " cannot be loaded (" + e.getMessage() + "); expected a class compiled"
                    + " for Java 17 against this kit's numaspread.jar");
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
