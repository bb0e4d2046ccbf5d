package dev.numaspread.conformance.process;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The command that starts {@link FakeProcess} as a program of its own: a JVM with only FakeProcess
 * and Jackson on its class path, which maps their classes from a class-data archive instead of
 * reading and verifying them. The first start of a build writes the archive (one extra run of the
 * fake, under {@code target/fake-process/}); every later one, in any surefire fork, maps it.
 *
 * <p>Why: ProcessImplementationTest and FailFastTest start the fake some 45 times a build. A fake
 * on the whole test class path cost 0.53 s of CPU a start, one mapping the archive 0.24 s, and the
 * run that writes the archive 0.9 s (hello, machine, local-spread, bye; means of 5 runs, load 6);
 * the two classes under mvn went from 38 to 41 s of CPU to 24 to 26 s, the archive's writing
 * included. What the fake says and does is the same either way: the archive holds class files.
 *
 * <p>Where no archive can be made (a class-path entry that is no jar, a JVM that cannot write one,
 * a dump that crashes), the fake starts as it did before, on the test class path, and the reason is
 * said once on stderr: slower, never different.
 */
final class FakeProcessJvm {
    private FakeProcessJvm() {}

    /** C1 only and the serial collector: the fake lives for seconds and answers a few requests. */
    static final List<String> OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    /** A CDS warning goes to stdout by default, where it would break the protocol: none is printed. */
    static final List<String> QUIET_CDS = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    /** The requests the archive-writing run answers: one of each kind the fake knows, so their classes are archived too. */
    static final String DUMP_REQUESTS = String.join("\n",
            "{\"id\":1,\"op\":\"hello\"}",
            "{\"id\":2,\"op\":\"topology\",\"topology\":{\"name\":\"two-nodes\",\"source\":\"fake\"}}",
            "{\"id\":3,\"op\":\"local-spread\",\"node\":1,\"i\":[0,1]}",
            "{\"id\":4,\"op\":\"page-pool\",\"create\":{\"nid\":1},\"pool\":\"p1\"}",
            "{\"id\":5,\"op\":\"page-pool\",\"pool\":\"p1\",\"action\":\"alloc\"}",
            "{\"id\":6,\"op\":\"irq-affinity-masks\",\"nvecs\":2,\"preVectors\":1}",
            "{\"id\":7,\"op\":\"unknown\"}",
            "{\"id\":8,\"op\":\"bye\"}", "");

    /** The command line of FakeProcess with {@code args} (mode, protocol, runs file). */
    static List<String> command(List<String> args) {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(OPTIONS);
        Optional<Archive> archive = Archive.ONCE;
        if (archive.isPresent()) {
            command.addAll(QUIET_CDS);
            command.add("-XX:SharedArchiveFile=" + archive.get().file());
            command.addAll(List.of("-cp", archive.get().classPath()));
        } else {
            command.addAll(List.of("-Xshare:auto", "-cp", System.getProperty("java.class.path")));
        }
        command.add(FakeProcess.class.getName());
        command.addAll(args);
        return command;
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * A class-data archive of the fake and the class path it was written for, which a JVM must be
     * given unchanged. {@link #ONCE} is made on first use, once per test JVM; the file lock makes
     * it once per build across surefire's forks.
     */
    record Archive(Path file, String classPath) {
        static final Optional<Archive> ONCE = findOrWrite();

        static Optional<Archive> findOrWrite() {
            try {
                return Optional.of(write());
            } catch (IOException | RuntimeException e) {
                System.err.println("FakeProcessJvm: the fake starts without a class-data archive (" + e.getMessage() + ")");
                return Optional.empty();
            }
        }

        /** The archive of this build's fake, written if no fork has written it yet. */
        static Archive write() throws IOException {
            Path classes = codeSource(FakeProcess.class);
            if (!Files.isDirectory(classes)) throw new IllegalStateException(classes + " is no class folder");
            String pkg = FakeProcess.class.getPackageName().replace('.', '/');
            List<Path> fakeClasses;
            try (Stream<Path> s = Files.list(classes.resolve(pkg))) {
                fakeClasses = s.filter(f -> f.getFileName().toString().matches("FakeProcess(\\$.*)?\\.class")).sorted().toList();
            }
            List<Path> jackson = new ArrayList<>();
            for (Class<?> c : List.of(ObjectMapper.class, JsonFactory.class, JsonAutoDetect.class)) {
                Path jar = codeSource(c);
                if (!Files.isRegularFile(jar)) throw new IllegalStateException(jar + " (" + c.getSimpleName() + ") is no jar");
                jackson.add(jar);
            }
            // The folder is named after everything the archive depends on: another fake, other
            // Jackson jars or another JVM get an archive of their own, never a stale one.
            MessageDigest sha = sha256();
            for (Path f : fakeClasses) sha.update(Files.readAllBytes(f));
            for (Path jar : jackson)
                sha.update((jar + " " + Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis() + "\n").getBytes(StandardCharsets.UTF_8));
            sha.update((System.getProperty("java.home") + " " + System.getProperty("java.vm.version")).getBytes(StandardCharsets.UTF_8));
            Path root = classes.getParent().resolve("fake-process");
            Path dir = root.resolve(HexFormat.of().formatHex(sha.digest(), 0, 8));
            Path jar = dir.resolve("fake.jar"), jsa = dir.resolve("fake.jsa"), broken = dir.resolve("broken");
            List<String> entries = new ArrayList<>(List.of(jar.toString()));
            for (Path j : jackson) entries.add(j.toString());
            Archive archive = new Archive(jsa, String.join(File.pathSeparator, entries));
            Files.createDirectories(dir);
            // Closing the channel releases the lock.
            try (FileChannel lock = FileChannel.open(root.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                lock.lock();
                if (Files.isRegularFile(jsa)) return archive;
                if (Files.exists(broken)) throw new IllegalStateException("an earlier fork could not write it: " + Files.readString(broken).strip());
                writeJar(jar, classes, fakeClasses);
                Optional<String> failed = dump(archive, dir);
                if (failed.isPresent()) {
                    Files.writeString(broken, failed.get() + "\n");
                    throw new IllegalStateException(failed.get());
                }
                return archive;
            }
        }

        /** The fake's class files in a jar: a dump archives no class from a folder. */
        static void writeJar(Path jar, Path classes, List<Path> fakeClasses) throws IOException {
            try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o)) {
                for (Path f : fakeClasses) {
                    j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                    j.write(Files.readAllBytes(f));
                    j.closeEntry();
                }
            }
        }

        /**
         * Runs the fake once through {@link #DUMP_REQUESTS}, archiving the classes it loaded at its
         * exit into a temporary file that becomes the archive only when the JVM ended well: JDK 17
         * can crash while it archives (the launcher's notes, benchmarks/README.md). Empty when it did.
         */
        static Optional<String> dump(Archive archive, Path dir) throws IOException {
            Path partial = dir.resolve("fake.jsa.partial"), log = dir.resolve("dump.log");
            Files.deleteIfExists(partial);
            List<String> command = new ArrayList<>(List.of(java()));
            command.addAll(OPTIONS);
            command.addAll(List.of("-XX:ArchiveClassesAtExit=" + partial, "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err.log"),
                    "-cp", archive.classPath(), FakeProcess.class.getName(), "good", "2"));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(DUMP_REQUESTS.getBytes(StandardCharsets.UTF_8));
            }
            try {
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return Optional.of("the run that writes it did not end within 120 s; see " + log);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
                return Optional.of("interrupted while it was written");
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(partial) || Files.size(partial) == 0)
                return Optional.of("the run that writes it exited with status " + p.exitValue() + "; see " + log);
            Files.move(partial, archive.file(), StandardCopyOption.ATOMIC_MOVE);
            return Optional.empty();
        }

        static Path codeSource(Class<?> c) {
            try {
                return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException | NullPointerException e) {
                throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from");
            }
        }

        static MessageDigest sha256() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e.getMessage());
            }
        }
    }
}
