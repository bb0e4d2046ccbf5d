package dev.numaspread.benchmarks;

import dev.numaspread.conformance.process.ProcessImplementation;
import dev.numaspread.kernel.source.KernelSrc;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Calls a second the kernel's own grouping code answers through the kit's process driver
 * ({@code --impl kernel-src:TREE}, issue 23): {@code group_cpus_evenly} and
 * {@code blk_mq_map_queues} of the tree compiled against {@code kernel-shim/}, from 16 threads as
 * checks side by side ask them (protocol 2, pipelined), on 32 machines the generator draws (at
 * most 8 nodes and 32 CPUs), already registered after the warm-up; one group or queue per online
 * CPU. Each operation is one question and one answer (the driver's ask-twice is off). The tree is
 * {@code -Dnumaspread.ksrc=TREE}, {@code debian-7.3} by default (Debian's linux-source-7.3
 * installed); the program comes from the cache, compiled on first use.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@Threads(16)
public class KernelSrcBench {

    ProcessImplementation program;
    KernelRelease kernel;
    List<Topology> machines;

    @Setup(Level.Trial)
    public void setUp() {
        program = KernelSrc.open(KernelSrc.PREFIX + System.getProperty("numaspread.ksrc", "debian-7.3"), Optional.empty(),
                Duration.ofSeconds(10), KernelSrc.cacheRoot(System::getenv), line -> { });
        kernel = program.claims().get(0).kernel();
        machines = ProtocolBench.machines(32);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        program.close();
    }

    @Benchmark
    public Optional<List<CpuSet>> groupCpusEvenly(ProtocolBench.Cursor cursor) {
        Topology m = machines.get(cursor.next++ % machines.size());
        return program.groupCpusEvenly(kernel, m, m.numOnlineCpus());
    }

    @Benchmark
    public int[] blkMqMapQueues(ProtocolBench.Cursor cursor) {
        Topology m = machines.get(cursor.next++ % machines.size());
        return program.blkMqMapQueues(kernel, m, m.numOnlineCpus(), 0);
    }
}
