package dev.numaspread.benchmarks;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * How a plan is timed: microseconds a call, two warm-up and three measured iterations of a second
 * each in one fork (README: {@code -wi}/{@code -i} set the run length). JMH reads these
 * annotations from the superclass (a subclass's own replace them, as {@link CallsPerSecond}'s do), so
 * each benchmark says only what it measures.
 */
@BenchmarkMode(Mode.AverageTime)
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public abstract class MicrosPerCall {
}
