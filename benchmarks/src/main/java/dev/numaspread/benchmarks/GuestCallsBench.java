package dev.numaspread.benchmarks;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.guest.GuestImage;
import dev.numaspread.kernel.guest.QemuGuest;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.util.ArrayList;
import java.util.List;

/**
 * Calls a second answered by a real kernel booted under QEMU (TCG without {@code /dev/kvm}): the
 * 2-node, 8-CPU machine of the kernel runs, booted once per trial. {@code oneAtATime}: a
 * {@code cpumask_local_spread} call and its answer, then the next (a round trip through QEMU's
 * virtio-serial, the agent and the probe). {@code pipelined}: 1,000 such requests sent together
 * (the agent hands all that arrived to the probe in one write); the score counts each request.
 * The kernel is {@code -Dnumaspread.kernel=SOURCE} (default {@code debian-6.12}; fetched into the
 * cache when missing); needs {@code qemu-system-x86_64}.
 */
public class GuestCallsBench extends CallsPerSecond {

    static final String MACHINE = """
            topology bench-2node-2s2c2t
            possible 0-7
            siblings 0-1 2-3 4-5 6-7
            package 0 cpus 0-3
            package 1 cpus 4-7
            available: 2 nodes (0-1)
            node 0 cpus: 0 1 2 3
            node 1 cpus: 4 5 6 7
            node distances:
            node   0   1
              0:  10  20
              1:  20  10
            """;

    QemuGuest guest;
    List<String> batch;
    int node;

    @Setup(Level.Trial)
    public void boot() {
        String source = System.getProperty("numaspread.kernel", "debian-6.12");
        KernelCache cache = KernelCache.fromEnvironment();
        GuestImage image = GuestImage.of(source, cache, System.err::println);
        Topology t = TopoFormat.read(MACHINE, "bench-2node-2s2c2t.topo").topology();
        guest = QemuGuest.boot(image, t, QemuGuest.Options.defaults(System.err::println));
        batch = new ArrayList<>();
        for (int i = 0; i < 1000; i++) batch.add("ls " + (i % 2) + " 1");
    }

    @TearDown(Level.Trial)
    public void stop() {
        guest.close();
    }

    @Benchmark
    public int oneAtATime() {
        node ^= 1;
        return guest.localSpread(node, 1)[0];
    }

    @Benchmark
    @OperationsPerInvocation(1000)
    public int pipelined() {
        return guest.ask(batch).size();
    }
}
