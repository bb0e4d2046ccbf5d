package dev.numaspread.conformance.certify;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * What defines a certification besides its implementation, its claims and its {@code Settings}:
 * the options of {@code certify} that choose what is judged ({@code --rule}, {@code --kernel},
 * {@code --topology}) and how ({@code --once}, {@code --timeout}, {@code --waivers}). A report
 * records them, so that {@code merge-reports} joins only shards of one run.
 *
 * @param rule        the one rule judged ({@code --rule}); empty: every rule of the claims
 * @param kernel      the one release judged ({@code --kernel}); empty: every claimed release
 * @param machine     the machines every check drew from: {@code --topology}'s, its name and the SHA-256
 *                    of its {@code .topo} text ({@code cex sha256:9f86d0...}), or a booted kernel's
 *                    ({@code Linux 7.3.4+deb13-amd64 on 8 machines drawn from the seed}); empty: drawn machines
 * @param repeatCalls every call made twice and compared (no {@code --once})
 * @param callTimeout the per-call timeout ({@code --timeout})
 * @param waivers     the waivers in force, {@code RULE YYYY-MM-DD reason}, by rule
 */
public record RunOptions(Optional<String> rule, Optional<KernelRelease> kernel, Optional<String> machine, boolean repeatCalls,
                         Duration callTimeout, List<String> waivers) {

    public RunOptions {
        waivers = List.copyOf(waivers);
    }

    /** The options of a run that names none: every rule and release, drawn machines, calls repeated, 10 s per call, no waivers. */
    public static final RunOptions DEFAULT = new RunOptions(Optional.empty(), Optional.empty(), Optional.empty(), true,
            CertifyOptions.DEFAULT_CALL_TIMEOUT, List.of());

    /** The options of a run certified with {@code o}. */
    public static RunOptions of(CertifyOptions o) {
        return new RunOptions(o.rule(), o.kernel(), o.settings().pool().map(RunOptions::machines),
                o.repeatCalls(), o.callTimeout(), o.waivers().all().stream().map(RunOptions::waiverText).toList());
    }

    /**
     * The machines of a pool as a run is known by them: what the pool says of itself (a booted
     * kernel's: the same in every shard, which split its machines), else the one machine's name
     * and hash, else how many.
     */
    public static String machines(dev.numaspread.conformance.topogen.MachinePool pool) {
        if (pool.description().isPresent()) return pool.description().get();
        List<dev.numaspread.model.topology.Topology> all = pool.machines();
        if (all.size() == 1) return all.get(0).name() + " sha256:" + sha256(TopoFormat.write(all.get(0)));
        StringBuilder text = new StringBuilder();
        for (var m : all) text.append(TopoFormat.write(m));
        return all.size() + " machines sha256:" + sha256(text.toString());
    }

    /** {@code LS-3 2026-12-31 reason}: a waiver as a waivers file states it. */
    public static String waiverText(Waivers.Waiver w) {
        return w.rule() + " " + w.expires() + " " + w.reason();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
