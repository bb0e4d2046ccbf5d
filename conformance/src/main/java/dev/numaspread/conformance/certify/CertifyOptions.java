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
 */
public record CertifyOptions(String implSpec, Optional<KernelRelease> kernel, Optional<String> rule, Settings settings,
                             Duration callTimeout, boolean repeatCalls, Waivers waivers) {

    /** {@code implSpec}, every claim and rule, default settings, 10 s per call, calls repeated, no waivers. */
    public static CertifyOptions defaults(String implSpec) {
        return new CertifyOptions(implSpec, Optional.empty(), Optional.empty(), Settings.defaults(),
                Duration.ofSeconds(10), true, Waivers.none());
    }

    public CertifyOptions withKernel(KernelRelease k) {
        return new CertifyOptions(implSpec, Optional.of(k), rule, settings, callTimeout, repeatCalls, waivers);
    }

    public CertifyOptions withRule(String r) {
        return new CertifyOptions(implSpec, kernel, Optional.of(r), settings, callTimeout, repeatCalls, waivers);
    }

    public CertifyOptions withSettings(Settings s) {
        return new CertifyOptions(implSpec, kernel, rule, s, callTimeout, repeatCalls, waivers);
    }

    public CertifyOptions withCallTimeout(Duration d) {
        return new CertifyOptions(implSpec, kernel, rule, settings, d, repeatCalls, waivers);
    }

    public CertifyOptions withRepeatCalls(boolean b) {
        return new CertifyOptions(implSpec, kernel, rule, settings, callTimeout, b, waivers);
    }

    public CertifyOptions withWaivers(Waivers w) {
        return new CertifyOptions(implSpec, kernel, rule, settings, callTimeout, repeatCalls, w);
    }
}
