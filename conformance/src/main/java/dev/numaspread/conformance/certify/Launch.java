package dev.numaspread.conformance.certify;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How a certification was started, so that the replay line it prints runs as printed from any
 * folder and any shell: the command that starts numaspread (the launcher's absolute path, or
 * {@code java -cp} with the absolute class path), the folder relative paths were given from
 * (a {@code process:} command or a waivers file may name files relative to it), the class path
 * third-party classes were loaded from, and the folder a replay writes its reports to.
 *
 * @param command    what starts numaspread: {@code '/home/u/numaspread/numaspread'}, already quoted
 *                   for a shell; {@code numaspread} when unknown
 * @param directory  the folder the run was started from; empty: do not change folder
 * @param classPath  absolute jars and class folders {@code java:CLASS} was loaded from (empty: none)
 * @param reports    where a replay writes its reports; empty: the replay's default
 * @param topology   the machine file of {@code --topology}, absolute, when the run replayed one
 * @param more       options a replay needs that the certification's options do not hold
 *                   ({@code --machines 8}: which machines a booted kernel ran on)
 */
public record Launch(String command, Optional<Path> directory, List<Path> classPath, Optional<Path> reports, Optional<Path> topology,
                     List<String> more) {

    public Launch {
        classPath = List.copyOf(classPath);
        more = List.copyOf(more);
    }

    public Launch(String command, Optional<Path> directory, List<Path> classPath, Optional<Path> reports, Optional<Path> topology) {
        this(command, directory, classPath, reports, topology, List.of());
    }

    public Launch(String command, Optional<Path> directory, List<Path> classPath, Optional<Path> reports) {
        this(command, directory, classPath, reports, Optional.empty());
    }

    /** {@code numaspread}, from wherever the reader is: the replay line of a library call or a test. */
    public static final Launch PLAIN = new Launch("numaspread", Optional.empty(), List.of(), Optional.empty());

    /** This launch, replaying the machine of {@code file}. */
    public Launch withTopology(Path file) {
        return new Launch(command, directory, classPath, reports, Optional.of(file.toAbsolutePath().normalize()), more);
    }

    /** This launch, its replays given {@code args} too ({@code --machines 8}). */
    public Launch withMore(List<String> args) {
        List<String> all = new java.util.ArrayList<>(more);
        all.addAll(args);
        return new Launch(command, directory, classPath, reports, topology, all);
    }

    /**
     * The replay line: {@code cd DIR && COMMAND certify ARGS}, with {@code --class-path} and
     * {@code --report} added when this launch has them. Every word from outside is quoted for a
     * POSIX shell (csh and fish read single quotes the same way).
     */
    public String line(List<String> certifyArgs) {
        StringBuilder sb = new StringBuilder();
        directory.ifPresent(d -> sb.append("cd ").append(shellWord(d.toString())).append(" && "));
        sb.append(command).append(" certify");
        for (String a : certifyArgs) sb.append(' ').append(a);
        for (String a : more) sb.append(' ').append(shellWord(a));
        topology.ifPresent(t -> sb.append(" --topology ").append(shellWord(t.toString())));
        if (!classPath.isEmpty())
            sb.append(" --class-path ").append(shellWord(String.join(java.io.File.pathSeparator,
                    classPath.stream().map(Path::toString).toList())));
        reports.ifPresent(r -> sb.append(" --report ").append(shellWord(r.toString())));
        return sb.toString();
    }

    /** {@code s} as one shell word: bare when it holds only safe characters, else single-quoted. */
    public static String shellWord(String s) {
        if (!s.isEmpty() && s.matches("[A-Za-z0-9_:./=@+,%-]+")) return s;
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
