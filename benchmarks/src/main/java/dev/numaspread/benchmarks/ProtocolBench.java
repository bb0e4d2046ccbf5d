package dev.numaspread.benchmarks;

import dev.numaspread.conformance.gen.Recorder;
import dev.numaspread.conformance.process.ProcessImplementation;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Protocol answers per second: the bundled example ({@code examples/python/spread.py}) answers
 * {@code local-spread} questions through the kit's process driver, from 16 threads, as checks
 * running side by side ask them. Under protocol 2 the driver pipelines the questions; under
 * protocol 1 ({@code --protocol 1}) it asks one at a time. Each operation is one question and one
 * answer (the driver's ask-twice is off), on one of 32 machines the certification's generator
 * draws (at most 8 nodes and 32 CPUs), already registered after the warm-up, a plan of
 * {@code 2 x online + 1} queues as the LS checks ask. Run from the repository's root (or set
 * {@code -Dnumaspread.example=PATH}); needs {@code python3}.
 */
@Threads(16)
public class ProtocolBench extends CallsPerSecond {

    @Param({"2", "1"})
    public String protocol;

    static final KernelRelease K612 = KernelRelease.of(6, 12);

    ProcessImplementation program;
    List<Topology> machines;

    @Setup(Level.Trial)
    public void setUp() {
        String script = example().toString();
        program = ProcessImplementation.ofShell("python3 " + script + (protocol.equals("1") ? " --protocol 1" : ""), Duration.ofSeconds(10));
        if (program.protocol() != Integer.parseInt(protocol))
            throw new IllegalStateException(script + " answered protocol " + program.protocol() + "; expected " + protocol);
        machines = machines(32);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        program.close();
    }

    /** Where each benchmark thread is in the list of machines. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Benchmark
    public int[] localSpread(Cursor cursor) {
        Topology m = machines.get(cursor.next++ % machines.size());
        return program.localSpreadCpus(K612, m, m.nodeIds()[cursor.next % m.nodeIds().length], 2 * m.numOnlineCpus() + 1);
    }

    /** {@code n} machines as the local-spread checks draw them, from fixed seeds. */
    static List<Topology> machines(int n) {
        var gen = dev.numaspread.conformance.topogen.Machines.realistic(
                dev.numaspread.conformance.topogen.Machines.Options.DEFAULT.withMaxNodes(8).withMaxCpus(32));
        List<Topology> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(Recorder.random(0x5eedL + i).draw(gen));
        return List.copyOf(out);
    }

    /** The bundled example: {@code -Dnumaspread.example}, else found from the working folder or its parent. */
    static Path example() {
        String given = System.getProperty("numaspread.example");
        if (given != null) return Path.of(given).toAbsolutePath();
        for (Path p : List.of(Path.of("examples/python/spread.py"), Path.of("../examples/python/spread.py")))
            if (Files.isRegularFile(p)) return p.toAbsolutePath();
        throw new IllegalStateException("examples/python/spread.py is not under " + Path.of("").toAbsolutePath()
                + "; expected to run from the repository's root, or -Dnumaspread.example=PATH");
    }
}
