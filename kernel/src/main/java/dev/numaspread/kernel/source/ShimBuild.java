package dev.numaspread.kernel.source;

import dev.numaspread.conformance.certify.DaemonThreads;
import dev.numaspread.kernel.cache.CacheLock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Compiles a tree's grouping family ({@link KernelTree#FILES}) with the shim ({@code kernel-shim/},
 * carried in this jar) into the program that answers the protocol, and keeps it in the cache under
 * a hash of everything that went in: the shim's files, the tree's four files, the forms' options
 * and the compiler. A second run with the same inputs compiles nothing.
 *
 * <p>The tree's files are copied into a build folder of their own first, so that their
 * {@code #include "blk.h"} finds the shim's stand-in ({@code -iquote}) and not the tree's header;
 * they are compiled unmodified, from the build folder, so that a WARN names {@code lib/group_cpus.c:412}.
 * A file that does not compile against the shim is an {@link UnusableTree} naming the tree's file,
 * the line and the symbol the shim lacks.
 *
 * @param cache    the folder programs are kept in ({@code CACHE/kernel-src})
 * @param compiler the C compiler to run ({@code gcc})
 * @param progress where a line goes when something takes time (compiling)
 */
public record ShimBuild(Path cache, String compiler, Consumer<String> progress) {

    /** The shim's files inside {@code kernel-shim/} (and under {@code numaspread/kernel-shim/} in this jar). */
    public static final List<String> SHIM_FILES = List.of(
            "include/kshim.h",
            "include/linux/blk-mq.h", "include/linux/cpu.h", "include/linux/device/bus.h", "include/linux/export.h",
            "include/linux/group_cpus.h", "include/linux/interrupt.h", "include/linux/kernel.h", "include/linux/mm.h",
            "include/linux/module.h", "include/linux/sched.h", "include/linux/sched/isolation.h", "include/linux/slab.h",
            "include/linux/smp.h", "include/linux/sort.h", "include/linux/threads.h", "include/linux/types.h",
            "quote/blk.h", "quote/blk-mq.h",
            "src/json.c", "src/json.h", "src/machine.c", "src/machine.h", "src/main.c");

    /** The shim's own translation units, linked with the tree's files. */
    static final List<String> SHIM_SOURCES = List.of("src/main.c", "src/json.c", "src/machine.c");

    /** How the compiler is asked: C as the kernel writes it, and a missing declaration is an error, never a guess. */
    static final List<String> CFLAGS = List.of("-std=gnu11", "-O2", "-g", "-fno-strict-aliasing",
            "-Werror=implicit-function-declaration", "-Werror=implicit-int", "-Werror=incompatible-pointer-types",
            "-Werror=int-conversion", "-Werror=return-type");

    /** One compiler run longer than this is stuck, not slow: a file is a few hundred lines. */
    static final long COMPILE_TIMEOUT_SECONDS = 120;

    /**
     * The program built from {@code tree} in its {@code forms}: from the cache when the same inputs
     * were built before, else compiled now.
     *
     * @throws UnusableTree when the compiler is missing or a file does not compile against the shim
     */
    public Path program(KernelTree tree, TreeForms forms) {
        byte[][] shim = new byte[SHIM_FILES.size()][];
        for (int i = 0; i < shim.length; i++) shim[i] = shimFile(SHIM_FILES.get(i));
        byte[][] files = new byte[KernelTree.FILES.size()][];
        for (int i = 0; i < files.length; i++) files[i] = bytes(tree.file(KernelTree.FILES.get(i)));
        String key = key(shim, files, forms.defines(), compilerVersion());
        Path dir = cache.resolve(key);
        Path program = dir.resolve("kshim");
        if (Files.isExecutable(program)) {
            progress.accept("kernel-src: " + tree.root() + " (" + tree.version() + ") was compiled before: " + program);
            return program;
        }
        // One compiler run for the same inputs, however many JVMs ask at once (kernel-it's two forks
        // on a new cache): whoever waited finds the program.
        try {
            return CacheLock.holding(cache.resolve(key + ".lock"), () -> Files.isExecutable(program) ? program : compile(tree, forms, shim, files, dir));
        } catch (IOException e) {
            throw new UnusableTree(cache + ": cannot lock " + key + " (" + e.getMessage() + "); expected a writable cache"
                    + " ($NUMASPREAD_CACHE or ~/.cache/numaspread)");
        }
    }

    private Path compile(KernelTree tree, TreeForms forms, byte[][] shim, byte[][] files, Path dir) {
        Path program = dir.resolve("kshim");
        long start = System.nanoTime();
        progress.accept("kernel-src: compiling " + String.join(", ", KernelTree.FILES) + " of " + tree.root() + " ("
                + tree.version() + ") with the shim into " + dir);
        Path build;
        try {
            Files.createDirectories(cache);
            build = Files.createTempDirectory(cache, "build-");
        } catch (IOException e) {
            throw new UnusableTree(cache + ": cannot create a build folder (" + e.getMessage() + "); expected a writable cache"
                    + " ($NUMASPREAD_CACHE or ~/.cache/numaspread)");
        }
        try {
            Path out = build.resolve("out");
            for (int i = 0; i < shim.length; i++) write(build.resolve("shim").resolve(SHIM_FILES.get(i)), shim[i]);
            for (int i = 0; i < files.length; i++) write(build.resolve("tree").resolve(KernelTree.FILES.get(i)), files[i]);
            Files.createDirectories(out);
            List<String> objects = new ArrayList<>();
            Path shimDir = build.resolve("shim");
            // Two compilers at a time (the machines this runs on have two cores or more); the error
            // reported is the first file's in this order, whichever compiler finished first.
            List<java.util.concurrent.Callable<Void>> units = new ArrayList<>();
            for (String f : KernelTree.FILES) {
                Path o = out.resolve(f.replace('/', '_') + ".o");
                units.add(() -> { compile(build.resolve("tree"), f, shimDir, forms, o, tree, build); return null; });
                objects.add(o.toString());
            }
            for (String f : SHIM_SOURCES) {
                Path o = out.resolve("kshim_" + f.replace('/', '_') + ".o");
                units.add(() -> { compile(shimDir, f, shimDir, forms, o, tree, build); return null; });
                objects.add(o.toString());
            }
            compileAll(units);
            List<String> link = new ArrayList<>(List.of(compiler, "-o", out.resolve("kshim").toString()));
            link.addAll(objects);
            run(link, build, tree, build);
            Path staged = build.resolve("program");
            Files.createDirectories(staged);
            Files.move(out.resolve("kshim"), staged.resolve("kshim"));
            try {
                Files.move(staged, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                // A run without the lock (an older numaspread) built the same inputs meanwhile: its
                // program is the same. rename(2) onto a full folder is ENOTEMPTY, which Java reports as a
                // plain FileSystemException, not as DirectoryNotEmptyException.
                if (!Files.isExecutable(program)) throw e;
            }
        } catch (IOException e) {
            throw new UnusableTree(dir + ": cannot keep the compiled program (" + e.getMessage() + "); expected a writable cache");
        } finally {
            deleteTree(build);
        }
        progress.accept("kernel-src: compiled in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
        return program;
    }

    /** Runs {@code units} two at a time; the first unit's failure, in list order, is thrown. */
    private static void compileAll(List<java.util.concurrent.Callable<Void>> units) {
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2, DaemonThreads.named("kernel-src compile"));
        try {
            List<java.util.concurrent.Future<Void>> done = two.invokeAll(units);
            for (java.util.concurrent.Future<Void> f : done) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) throw r;
                    throw new IllegalStateException("kernel-src: a compile failed unexpectedly", e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnusableTree("kernel-src: interrupted while compiling");
        } finally {
            two.shutdownNow();
        }
    }

    private void compile(Path cwd, String source, Path shim, TreeForms forms, Path object, KernelTree tree, Path build) {
        List<String> cmd = new ArrayList<>(List.of(compiler));
        cmd.addAll(CFLAGS);
        cmd.addAll(forms.defines());
        cmd.addAll(List.of("-I", shim.resolve("include").toString(), "-iquote", shim.resolve("quote").toString(),
                "-c", source, "-o", object.toString()));
        run(cmd, cwd, tree, build);
    }

    /** Runs the compiler or linker; its failure is an {@link UnusableTree} from its first error. */
    private void run(List<String> cmd, Path cwd, KernelTree tree, Path build) {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().put("LC_ALL", "C");   // plain quotes around symbols in the messages
        String output;
        int status;
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] all = p.getInputStream().readAllBytes();
            if (!p.waitFor(COMPILE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new UnusableTree(tree.root() + ": " + cmd.get(0) + " ran past " + COMPILE_TIMEOUT_SECONDS + " s; expected a compile of seconds");
            }
            output = new String(all, StandardCharsets.UTF_8);
            status = p.exitValue();
        } catch (IOException e) {
            throw new UnusableTree(compiler + ": cannot run (" + e.getMessage() + "); expected a C compiler on PATH"
                    + " (Debian: apt-get install gcc libc6-dev)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnusableTree(tree.root() + ": interrupted while compiling");
        }
        if (status != 0) throw new UnusableTree(firstError(output, tree, build));
    }

    private static final Pattern DIAGNOSTIC = Pattern.compile("^(\\S+?):(\\d+)(?::\\d+)?: (?:fatal )?error: (.*)$", Pattern.MULTILINE);
    private static final Pattern UNDEFINED = Pattern.compile("^(\\S+?):(\\d+): undefined reference to `([^']+)'$", Pattern.MULTILINE);
    private static final Pattern UNDEFINED_NO_LINE = Pattern.compile("undefined reference to `([^']+)'");
    private static final Pattern QUOTED = Pattern.compile("'([^']+)'");
    private static final Pattern MISSING_HEADER = Pattern.compile("^(\\S+\\.h): No such file or directory$");

    /**
     * The first error of a compiler's {@code output}, in the words of the tree: {@code
     * TREE/lib/group_cpus.c:50: kzalloc_objs: implicit declaration of function 'kzalloc_objs';
     * expected only what the shim stands in for (kernel-shim/include/kshim.h)}.
     */
    static String firstError(String output, KernelTree tree, Path build) {
        Matcher d = DIAGNOSTIC.matcher(output);
        Matcher u = UNDEFINED.matcher(output);
        String where, message, symbol;
        if (d.find()) {
            where = place(d.group(1), tree, build) + ":" + d.group(2);
            message = d.group(3).strip();
            Matcher header = MISSING_HEADER.matcher(message);
            Matcher q = QUOTED.matcher(message);
            symbol = header.matches() ? header.group(1) : q.find() ? q.group(1) : "";
        } else if (u.find()) {
            where = place(u.group(1), tree, build) + ":" + u.group(2);
            symbol = u.group(3);
            message = "undefined reference to '" + symbol + "'";
        } else {
            Matcher n = UNDEFINED_NO_LINE.matcher(output);
            String tail = output.strip();
            if (tail.length() > 600) tail = "..." + tail.substring(tail.length() - 600);
            if (!n.find()) return tree.root() + ": the compiler failed: " + tail.replace(build.toString() + "/", "")
                    + "; expected the grouping family to compile against the shim";
            where = tree.root().toString();
            symbol = n.group(1);
            message = "undefined reference to '" + symbol + "'";
        }
        return where + ": " + (symbol.isEmpty() ? "" : symbol + ": ") + message + "; expected only what the shim stands in for"
                + " (kernel-shim/include/kshim.h: CPU and node masks, topology, allocation, sort, the routines' structures)"
                + " — the shim lacks " + (symbol.isEmpty() ? "what this line uses" : symbol);
    }

    /** A file the compiler named, as a path a reader finds: in the tree, or in kernel-shim/. */
    private static String place(String file, KernelTree tree, Path build) {
        String f = file.startsWith(build.toString() + "/") ? file.substring(build.toString().length() + 1) : file;
        if (f.startsWith("tree/")) f = f.substring(5);
        if (f.startsWith("shim/")) return "kernel-shim/" + f.substring(5);
        if (KernelTree.FILES.contains(f)) return tree.file(f).toString();
        if (f.startsWith("include/") || f.startsWith("quote/") || f.startsWith("src/")) return "kernel-shim/" + f;
        return f;
    }

    /** The cache key: a hash of every input, so a changed shim, tree file, form or compiler builds anew. */
    static String key(byte[][] shim, byte[][] files, List<String> defines, String compilerVersion) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < shim.length; i++) {
                sha.update(("shim " + SHIM_FILES.get(i) + " " + shim[i].length + "\n").getBytes(StandardCharsets.UTF_8));
                sha.update(shim[i]);
            }
            for (int i = 0; i < files.length; i++) {
                sha.update(("tree " + KernelTree.FILES.get(i) + " " + files[i].length + "\n").getBytes(StandardCharsets.UTF_8));
                sha.update(files[i]);
            }
            sha.update(("flags " + CFLAGS + " " + defines + "\ncompiler " + compilerVersion + "\n").getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JVM", e);
        }
    }

    /** {@code gcc -dumpfullversion -dumpmachine}, or the reason the compiler cannot run. */
    private String compilerVersion() {
        try {
            Process p = new ProcessBuilder(compiler, "-dumpfullversion", "-dumpmachine").redirectErrorStream(true).start();
            p.getOutputStream().close();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0)
                throw new UnusableTree(compiler + " -dumpfullversion failed (" + v + "); expected a C compiler on PATH (Debian: apt-get install gcc)");
            return compiler + " " + v.replace('\n', ' ');
        } catch (IOException e) {
            throw new UnusableTree(compiler + ": cannot run (" + e.getMessage() + "); expected a C compiler on PATH"
                    + " (Debian: apt-get install gcc libc6-dev)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnusableTree(compiler + ": interrupted");
        }
    }

    /** A file of the shim, from this jar. */
    static byte[] shimFile(String name) {
        try (InputStream in = ShimBuild.class.getClassLoader().getResourceAsStream("numaspread/kernel-shim/" + name)) {
            if (in == null) throw new IllegalStateException("numaspread/kernel-shim/" + name + " is missing from the kernel jar");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UnusableTree(p + ": cannot be read (" + e.getMessage() + "); expected a readable file");
        }
    }

    private static void write(Path p, byte[] content) throws IOException {
        Files.createDirectories(p.getParent());
        Files.write(p, content);
    }

    private static void deleteTree(Path p) {
        if (!Files.exists(p)) return;
        try (Stream<Path> all = Files.walk(p)) {
            all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // A build folder left behind is only litter in the cache.
        }
    }

    /** Where programs are kept under a cache root: {@code CACHE/kernel-src}. */
    public static Path folder(Path cacheRoot) {
        return cacheRoot.resolve("kernel-src");
    }
}
