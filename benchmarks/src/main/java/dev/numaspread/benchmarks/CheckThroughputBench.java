package dev.numaspread.benchmarks;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelRelease;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.time.Duration;
import java.util.List;

/**
 * Generated machines checked per second: the kit's local-spread checks of one release (every
 * check of a rule of {@code local-spread}: contract, exact and seed examples) run against an
 * in-JVM implementation, the reference model, as {@code certify} runs them, on machines of at
 * most 8 nodes and 32 CPUs. An operation is one pass over the checks with {@link #TRIES} tries
 * each; the counter {@code machines} adds the tries each check reports, so JMH prints machines
 * per second beside operations per second. Each pass draws from another seed, so the machines
 * differ from pass to pass.
 */
public class CheckThroughputBench extends CallsPerSecond {

    /** Tries per property per pass: enough that a pass is mostly drawing and judging, not setup. */
    static final int TRIES = 50;

    @Param({"6.12", "6.1"})
    public String kernel;

    KernelRelease release;
    List<Check> checks;
    final Implementation implementation = new ReferenceModel();

    @Setup
    public void setUp() {
        release = KernelRelease.parse(kernel);
        checks = AllChecks.all().stream().filter(c -> c.routine() == Routine.LOCAL_SPREAD).toList();
        if (checks.isEmpty()) throw new IllegalStateException("no local-spread check; expected the LS family");
    }

    /** The machines the checks of one thread judged, counted as JMH operations (per second). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counted {
        public long machines;
        long seed = 0x5eedL;

        @Setup(Level.Iteration)
        public void clear() {
            machines = 0;
        }
    }

    @Benchmark
    public int localSpreadChecks(Counted counted) {
        Settings settings = new Settings(TRIES, counted.seed++, Duration.ofSeconds(60));
        int passed = 0;
        for (Check c : checks) {
            CheckResult r = CheckRunner.run(c, implementation, release, settings);
            if (r instanceof CheckResult.Passed p) {
                counted.machines += p.tries();
                passed++;
            } else if (!(r instanceof CheckResult.NotApplicable)) {
                throw new IllegalStateException(c.name() + " on the reference model, kernel " + release + ": " + r + "; expected a pass");
            }
        }
        return passed;
    }
}
