package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.model.kernel.KernelRelease;

import java.time.Duration;
import java.util.Optional;

/**
 * How one certification runs.
 *
 * @param implSpec    how the implementation was named on the command line ({@code model},
 *                    {@code java:com.acme.Spread}, {@code process:'python3 spread.py'}), for replay commands
 * @param kernel      only claims of this release, when present ({@code --kernel})
 * @param rule        only this rule, when present ({@code --rule})
 * @param settings    tries and seed of the properties
 * @param callTimeout the per-call timeout; a call that takes longer is an ERROR
 * @param repeatCalls make every call twice and compare, so a nondeterministic answer is an ERROR
 * @param waivers     rules allowed to fail
 * @param launch      how this run was started, for the replay lines it prints
 */
public record CertifyOptions(String implSpec, Optional<KernelRelease> kernel, Optional<String> rule, Settings settings,
                             Duration callTimeout, boolean repeatCalls, Waivers waivers, Launch launch) {

    /** The per-call timeout when none is given. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);

    public CertifyOptions(String implSpec, Optional<KernelRelease> kernel, Optional<String> rule, Settings settings,
                          Duration callTimeout, boolean repeatCalls, Waivers waivers) {
        this(implSpec, kernel, rule, settings, callTimeout, repeatCalls, waivers, Launch.PLAIN);
    }

    /** {@code implSpec}, every claim and rule, default settings, 10 s per call, calls repeated, no waivers. */
    public static CertifyOptions defaults(String implSpec) {
        return new CertifyOptions(implSpec, Optional.empty(), Optional.empty(), Settings.defaults(),
                DEFAULT_CALL_TIMEOUT, true, Waivers.none(), Launch.PLAIN);
    }

    public CertifyOptions withLaunch(Launch l) {
        return new CertifyOptions(implSpec, kernel, rule, settings, callTimeout, repeatCalls, waivers, l);
    }

    public CertifyOptions withKernel(KernelRelease k) {
        return new CertifyOptions(implSpec, Optional.of(k), rule, settings, callTimeout, repeatCalls, waivers, launch);
    }

    public CertifyOptions withRule(String r) {
        return new CertifyOptions(implSpec, kernel, Optional.of(r), settings, callTimeout, repeatCalls, waivers, launch);
    }

    public CertifyOptions withSettings(Settings s) {
        return new CertifyOptions(implSpec, kernel, rule, s, callTimeout, repeatCalls, waivers, launch);
    }

    public CertifyOptions withCallTimeout(Duration d) {
        return new CertifyOptions(implSpec, kernel, rule, settings, d, repeatCalls, waivers, launch);
    }

    public CertifyOptions withRepeatCalls(boolean b) {
        return new CertifyOptions(implSpec, kernel, rule, settings, callTimeout, b, waivers, launch);
    }

    public CertifyOptions withWaivers(Waivers w) {
        return new CertifyOptions(implSpec, kernel, rule, settings, callTimeout, repeatCalls, w, launch);
    }
}
