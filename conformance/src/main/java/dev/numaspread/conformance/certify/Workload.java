package dev.numaspread.conformance.certify;

import java.time.Duration;
import java.util.Locale;

/**
 * What a certification cost, so that a slow one shows where its time went.
 *
 * @param calls                routine calls the checks and scenarios made (a repeated call counts twice)
 * @param requests             requests sent to an out-of-process implementation (hello, machines,
 *                             routine calls, bye); 0 for one in the kit's JVM
 * @param batches              writes that handed one or more of those requests to the program at
 *                             once; fewer batches than requests means requests were pipelined
 * @param total                wall time of the certification
 * @param insideImplementation of {@code total}, the time the kit waited for the implementation: for a
 *                             program, while at least one request waited for its answer; in the
 *                             JVM, the time inside its methods
 * @param kitCpu               CPU time the kit's JVM used meanwhile, all its threads (the
 *                             implementation's included when it runs in the JVM): unlike wall
 *                             times, it does not grow when other work shares the machine
 */
public record Workload(long calls, long requests, long batches, Duration total, Duration insideImplementation, Duration kitCpu) {

    public static final Workload NONE = new Workload(0, 0, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    /** Calls made through the guard, and the time inside them. */
    public record Calls(long calls, Duration inside) {}

    /** The rest of {@code total}: the kit drawing machines, asking the model, judging and reporting. */
    public Duration inKit() {
        Duration d = total.minus(insideImplementation);
        return d.isNegative() ? Duration.ZERO : d;
    }

    /**
     * {@code 1,983 calls; 4,559 requests in 1,984 batches; 4.6 s: 1.8 s inside the implementation,
     * 2.8 s in the kit (kit CPU 2.1 s)}.
     */
    public String text() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%,d calls", calls));
        if (requests > 0) sb.append(String.format(Locale.ROOT, "; %,d requests in %,d batches", requests, batches));
        return sb.append(String.format(Locale.ROOT, "; %s: %s inside the implementation, %s in the kit (kit CPU %s)",
                seconds(total), seconds(insideImplementation), seconds(inKit()), seconds(kitCpu))).toString();
    }

    /** The CPU time this JVM has used so far, all threads; zero where the JVM does not say. */
    public static Duration processCpu() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean hotspot && hotspot.getProcessCpuTime() >= 0)
            return Duration.ofNanos(hotspot.getProcessCpuTime());
        return Duration.ZERO;
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
