package dev.numaspread.conformance.junit;

import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.Waivers;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.model.kernel.KernelRelease;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The options of a certification inside JUnit, read from system properties ({@code mvn test
 * -Dnumaspread.rule=LS-3} passes them to the test JVM). Each is the twin of an option of
 * {@code numaspread certify}, with the same default and bounds:
 *
 * <table>
 *   <caption>system properties</caption>
 *   <tr><th>property</th><th>default</th><th>{@code certify} option</th></tr>
 *   <tr><td>{@code numaspread.rule}</td><td>every rule of the claims</td><td>{@code --rule LS-3}</td></tr>
 *   <tr><td>{@code numaspread.kernel}</td><td>every claimed release</td><td>{@code --kernel 6.12}</td></tr>
 *   <tr><td>{@code numaspread.seed}</td><td>{@code 0x5eed}</td><td>{@code --seed}</td></tr>
 *   <tr><td>{@code numaspread.tries}</td><td>200, 1 to 1000000</td><td>{@code --tries}</td></tr>
 *   <tr><td>{@code numaspread.budget.seconds}</td><td>20, 1 to 86400</td><td>{@code --budget}</td></tr>
 *   <tr><td>{@code numaspread.timeout.seconds}</td><td>10, 1 to 3600</td><td>{@code --timeout}</td></tr>
 *   <tr><td>{@code numaspread.once}</td><td>{@code false}</td><td>{@code --once}</td></tr>
 *   <tr><td>{@code numaspread.waivers}</td><td>none</td><td>{@code --waivers FILE}</td></tr>
 *   <tr><td>{@code numaspread.report}</td><td>{@code target/numaspread-report}</td><td>{@code --report DIR}</td></tr>
 * </table>
 *
 * @param rule        only this rule, when present
 * @param kernel      only the claims of this release, when present
 * @param settings    tries, seed and budget of the properties
 * @param callTimeout the per-call timeout
 * @param repeatCalls make every call twice and compare ({@code numaspread.once} turns it off)
 * @param waivers     rules allowed to fail
 * @param report      where {@link Certification} writes the reports, when given
 */
public record CertificationProperties(Optional<String> rule, Optional<KernelRelease> kernel, Settings settings,
                                      Duration callTimeout, boolean repeatCalls, Waivers waivers, Optional<Path> report) {

    static final int MAX_TRIES = 1_000_000, MAX_BUDGET_SECONDS = 86_400, MAX_TIMEOUT_SECONDS = 3600;

    /**
     * The properties of this JVM.
     *
     * @throws IllegalArgumentException one is not understood: {@code -Dnumaspread.tries=lots: not a number; expected 1 to 1000000}
     */
    public static CertificationProperties fromSystem() {
        return read(System::getProperty, Certifier.standard());
    }

    /** The properties {@code property} gives (null for one not set); rule ids are checked against {@code kit}. */
    static CertificationProperties read(Function<String, String> property, Certifier kit) {
        Optional<String> rule = value(property, "numaspread.rule").map(id -> {
            try {
                return kit.requireRule(id);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("-Dnumaspread.rule=" + id + ": " + e.getMessage());
            }
        });
        Optional<KernelRelease> kernel = value(property, "numaspread.kernel").map(k -> {
            try {
                return KernelRelease.modelled(k);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("-Dnumaspread.kernel=" + k + ": " + e.getMessage());
            }
        });
        long seed = value(property, "numaspread.seed").map(CertificationProperties::seed).orElse(Settings.DEFAULT_SEED);
        int tries = bounded(property, "numaspread.tries", Settings.DEFAULT_TRIES, 1, MAX_TRIES);
        int budget = bounded(property, "numaspread.budget.seconds", (int) Settings.DEFAULT_BUDGET.toSeconds(), 1, MAX_BUDGET_SECONDS);
        int timeout = bounded(property, "numaspread.timeout.seconds", (int) CertifyOptions.DEFAULT_CALL_TIMEOUT.toSeconds(), 1,
                MAX_TIMEOUT_SECONDS);
        boolean once = value(property, "numaspread.once").map(v -> switch (v) {
            case "true", "" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("-Dnumaspread.once=" + v + ": expected true or false");
        }).orElse(false);
        Waivers waivers = value(property, "numaspread.waivers").map(f -> {
            try {
                return Waivers.read(Path.of(f));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("-Dnumaspread.waivers=" + f + ": " + e.getMessage());
            }
        }).orElse(Waivers.none());
        Optional<Path> report = value(property, "numaspread.report").map(Path::of);
        return new CertificationProperties(rule, kernel, new Settings(tries, seed, Duration.ofSeconds(budget)),
                Duration.ofSeconds(timeout), !once, waivers, report);
    }

    /** The options of a certification of the implementation named {@code implSpec} in reports. */
    public CertifyOptions options(String implSpec) {
        CertifyOptions o = CertifyOptions.defaults(implSpec).withSettings(settings).withCallTimeout(callTimeout)
                .withRepeatCalls(repeatCalls).withWaivers(waivers);
        if (rule.isPresent()) o = o.withRule(rule.get());
        if (kernel.isPresent()) o = o.withKernel(kernel.get());
        return o;
    }

    /**
     * The line that replays {@code rule} for {@code kernel} as {@code options} ran it:
     * {@code PREFIX -Dnumaspread.rule=LS-3 -Dnumaspread.kernel=6.12 -Dnumaspread.seed=0x5eed -Dnumaspread.tries=200},
     * with the budget, timeout and {@code once} when they are not the defaults.
     */
    static String replay(String prefix, CertifyOptions options, KernelRelease kernel, String rule) {
        List<String> words = new ArrayList<>();
        if (!prefix.isEmpty()) words.add(prefix);
        words.add("-Dnumaspread.rule=" + rule);
        words.add("-Dnumaspread.kernel=" + kernel);
        words.add("-Dnumaspread.seed=0x" + Long.toHexString(options.settings().seed()));
        words.add("-Dnumaspread.tries=" + options.settings().tries());
        if (!options.settings().budget().equals(Settings.DEFAULT_BUDGET))
            words.add("-Dnumaspread.budget.seconds=" + Math.max(1, options.settings().budget().toSeconds()));
        if (!options.callTimeout().equals(CertifyOptions.DEFAULT_CALL_TIMEOUT))
            words.add("-Dnumaspread.timeout.seconds=" + Math.max(1, options.callTimeout().toSeconds()));
        if (!options.repeatCalls()) words.add("-Dnumaspread.once=true");
        return String.join(" ", words);
    }

    private static Optional<String> value(Function<String, String> property, String name) {
        return Optional.ofNullable(property.apply(name)).map(String::strip);
    }

    private static int bounded(Function<String, String> property, String name, int fallback, int lo, int hi) {
        Optional<String> v = value(property, name);
        if (v.isEmpty()) return fallback;
        // ASCII digits only: Integer.parseInt also reads full-width and Arabic-Indic ones.
        if (!v.get().matches("-?[0-9]{1,10}") || Long.parseLong(v.get()) != (int) Long.parseLong(v.get()))
            throw new IllegalArgumentException("-D" + name + "=" + v.get() + ": not a number; expected " + lo + " to " + hi);
        int n = Integer.parseInt(v.get());
        if (n < lo || n > hi) throw new IllegalArgumentException("-D" + name + "=" + n + ": out of range; expected " + lo + " to " + hi);
        return n;
    }

    private static long seed(String text) {
        try {
            // Unsigned in hex: a replay line prints the seed as Long.toHexString does.
            return dev.numaspread.conformance.checks.Settings.parseSeed(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-Dnumaspread.seed=" + text + ": not a number; expected decimal or 0x hex, as 0x5eed");
        }
    }
}
