package dev.numaspread.conformance.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Counterexample;
import dev.numaspread.conformance.certify.Evidence;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.RunOptions;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.certify.Waivers;
import dev.numaspread.conformance.certify.Workload;
import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.conformance.json.JsonInput;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.SmallMachines;
import dev.numaspread.model.hotplug.Outcome;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.KernelRelease;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads a {@code report.json} that {@link ReportWriter} wrote back into the {@link Certificate}
 * it says, so certificates can be joined ({@code numaspread merge-reports}) and written again in
 * every format. What the file does not hold comes back as the writer would show it: the
 * interleavings of a rule are its first source's, a counterexample belongs to the source its
 * verdict names.
 *
 * <p>A report comes from outside (a CI artifact), so it is read as any input is (spec/formats.md
 * FMT-17 to FMT-19): a regular file of at most 16 MiB of UTF-8 JSON, no key twice, every string
 * made printable, every number a whole number in its range. And it must not contradict itself:
 * each rule's verdict is the one its evidence gives (a PASS needs evidence, every source of it
 * having judged), its tries, judged tries and cases are the sums of its evidence's, and the counts,
 * the exit code and the level are those of its rules. Every error names the file and the JSON
 * pointer of the value: {@code shard-2/report.json:/rules/3/tries: ...}.
 *
 * <p>Over 450 lines on purpose (issue 26): reading a report back, each field with the message that
 * names where it is wrong.
 */
public final class ReportReader {
    private ReportReader() {}

    /** What every message expects. */
    static final String EXPECTED = "a report.json of numaspread certify";

    /** A report that is not one {@link ReportWriter} wrote: {@code file:/pointer: what was found; what was expected}. */
    public static final class BadReport extends InvalidInputException {
        BadReport(String where, String problem) {
            super(where, problem);
        }
    }

    /**
     * The certificate {@code file} holds.
     *
     * @throws BadReport when the file cannot be read, is not JSON, or is not a report numaspread wrote
     */
    public static Certificate read(Path file) {
        JsonNode o;
        try {
            o = JsonInput.read(file, EXPECTED);
        } catch (InvalidInputException e) {
            throw new BadReport(e.where(), e.problem());
        }
        return new Reader(file.toString()).certificate(o);
    }

    /** The certificate {@code text} holds; {@code where} names it in errors. */
    public static Certificate parse(String where, String text) {
        JsonNode o;
        try {
            o = JsonInput.read(text, where, EXPECTED);
        } catch (InvalidInputException e) {
            throw new BadReport(e.where(), e.problem());
        }
        return new Reader(where).certificate(o);
    }

    /** Rule ids as the kit names them ({@code LS-3}, {@code HOP-10a}), of a bounded length. */
    private static final Pattern RULE_ID = Pattern.compile("[A-Z][A-Z0-9]{0,15}-[1-9][0-9]{0,5}[a-z]?");
    /** The most a count of tries, judged tries or cases may be in one report: every sum of them stays an int. */
    private static final int MAX_COUNT = Integer.MAX_VALUE;
    /** The most calls, requests or batches a workload may count (0.1 million calls a second for 30 years): 10,000 shards of it add up within a long. */
    private static final long MAX_CALLS = 100_000_000_000_000L;
    /** The most seconds a workload may count: about 30 years. */
    private static final double MAX_SECONDS = 1e9;

    private static final class Reader {
        final String file;

        Reader(String file) {
            this.file = file;
        }

        BadReport bad(String pointer, String problem) {
            return new BadReport(file + ":" + (pointer.isEmpty() ? "/" : pointer), problem);
        }

        Certificate certificate(JsonNode o) {
            object(o, "");
            String suite = text(o, "", "suiteVersion");
            List<Claim> claims = new ArrayList<>();
            JsonNode claimArray = array(o, "", "claims");
            for (int i = 0; i < claimArray.size(); i++) {
                String at = "/claims/" + i;
                JsonNode c = object(claimArray.get(i), at);
                String routine = text(c, at, "routine");
                String kernel = text(c, at, "kernel");
                try {
                    claims.add(Claim.of(routine, kernel));
                } catch (IllegalArgumentException e) {
                    throw bad(at, Printable.of(String.valueOf(e.getMessage())) + "; expected a claim of a routine and a modelled release");
                }
            }
            JsonNode s = object(field(o, "", "settings"), "/settings");
            Settings settings;
            try {
                settings = new Settings(whole(s, "/settings", "tries", 1, Integer.MAX_VALUE), seed(s), Duration.ofSeconds(
                        whole(s, "/settings", "budgetSeconds", 0, Integer.MAX_VALUE)), Optional.empty(),
                        whole(s, "/settings", "exhaustive", 0, SmallMachines.MAX_SCOPE), shard(s));
            } catch (BadReport e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw bad("/settings", Printable.of(String.valueOf(e.getMessage())) + "; expected the settings of a certify run");
            }
            RunOptions run = run(s);
            Set<KernelRelease> claimed = new HashSet<>();
            for (Claim c : claims) claimed.add(c.kernel());
            List<RuleResult> results = new ArrayList<>();
            Map<String, String> seen = new LinkedHashMap<>();
            JsonNode rules = array(o, "", "rules");
            for (int i = 0; i < rules.size(); i++) {
                RuleResult r = rule(rules.get(i), "/rules/" + i, settings.seed(), claimed);
                String key = r.rule() + r.kernel().map(k -> " (kernel " + k + ")").orElse("");
                String first = seen.putIfAbsent(key, "/rules/" + i);
                if (first != null) throw bad("/rules/" + i, "rule " + key + " again (also " + first + "); expected each rule and release once");
                results.add(r);
            }
            List<String> notes = new ArrayList<>();
            JsonNode noteArray = array(o, "", "notes");
            for (int i = 0; i < noteArray.size(); i++) notes.add(string(noteArray.get(i), "/notes/" + i));
            Workload workload = workload(object(field(o, "", "workload"), "/workload"));
            Instant started = instant(o, "started"), finished = instant(o, "finished");
            Certificate c = new Certificate(text(o, "", "implementation"), text(o, "", "implSpec"), claims, suite, settings,
                    started, finished, results, notes, workload, run);
            agrees(o, c);
            return c;
        }

        /** The report's own summary must be its rules': counts, exit code and level (a tampered exit code is no green). */
        void agrees(JsonNode o, Certificate c) {
            JsonNode counts = object(field(o, "", "counts"), "/counts");
            Map<String, Integer> want = c.counts();
            for (Map.Entry<String, Integer> e : want.entrySet()) {
                int stated = whole(counts, "/counts", e.getKey(), 0, Integer.MAX_VALUE);
                if (stated != e.getValue())
                    throw bad("/counts/" + e.getKey(), "found " + stated + "; expected " + e.getValue() + ", the " + e.getKey()
                            + " results its rules hold");
            }
            for (var it = counts.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!want.containsKey(k)) throw bad("/counts", "found a count of " + Printable.quote(k) + "; expected only " + want.keySet());
            }
            int exit = whole(o, "", "exitCode", 0, 3);
            if (exit != c.exitCode())
                throw bad("/exitCode", "found " + exit + "; expected " + c.exitCode() + ", the exit code its rules give");
            String level = text(o, "", "levelReached");
            if (!level.equals(c.levelReached()))
                throw bad("/levelReached", "found " + Printable.quote(level) + "; expected " + c.levelReached() + ", the level its rules reach");
        }

        long seed(JsonNode s) {
            String t = text(s, "/settings", "seed");
            if (t.matches("0x[0-9a-f]{1,16}")) return Long.parseUnsignedLong(t.substring(2), 16);
            if (t.matches("-?[0-9]{1,19}")) {
                try {
                    return Long.parseLong(t);
                } catch (NumberFormatException e) {
                    // past a long: below
                }
            }
            throw bad("/settings/seed", "found " + Printable.quote(t) + "; expected a seed such as 0x5eed");
        }

        Shard shard(JsonNode s) {
            String t = text(s, "/settings", "shard");
            try {
                return Shard.parse(t);
            } catch (IllegalArgumentException e) {
                throw bad("/settings/shard", "found " + Printable.quote(t) + "; expected K/N, such as 2/8");
            }
        }

        RunOptions run(JsonNode s) {
            Optional<String> rule = nullableText(s, "/settings", "rule");
            if (rule.isPresent() && !RULE_ID.matcher(rule.get()).matches())
                throw bad("/settings/rule", "found " + Printable.quote(rule.get()) + "; expected a rule id such as LS-3, or null");
            Optional<KernelRelease> kernel = nullableText(s, "/settings", "kernel").map(k -> release(k, "/settings/kernel"));
            Optional<String> topology = nullableText(s, "/settings", "topology");
            boolean once = bool(s, "/settings", "once");
            long timeout = wholeLong(s, "/settings", "timeoutMillis", 1, 1_000_000_000L);
            List<String> waivers = new ArrayList<>();
            JsonNode w = array(s, "/settings", "waivers");
            for (int i = 0; i < w.size(); i++) waivers.add(string(w.get(i), "/settings/waivers/" + i));
            return new RunOptions(rule, kernel, topology, !once, Duration.ofMillis(timeout), waivers);
        }

        RuleResult rule(JsonNode j, String at, long seed, Set<KernelRelease> claimed) {
            object(j, at);
            String id = text(j, at, "id");
            if (!RULE_ID.matcher(id).matches()) throw bad(at + "/id", "found " + Printable.quote(id) + "; expected a rule id such as LS-3");
            String level = text(j, at, "level");
            if (!List.of("MUST", "EXACT", "SHOULD").contains(level))
                throw bad(at + "/level", "found " + Printable.quote(level) + "; expected MUST, EXACT or SHOULD");
            Optional<KernelRelease> kernel = nullableText(j, at, "kernel").map(k -> release(k, at + "/kernel"));
            if (kernel.isPresent() && !claimed.contains(kernel.get()))
                throw bad(at + "/kernel", "found " + kernel.get() + ", a release no claim names; expected a claimed release");
            String ruleSeed = text(j, at, "seed");
            if (!ruleSeed.equals("0x" + Long.toHexString(seed)))
                throw bad(at + "/seed", "found " + Printable.quote(ruleSeed) + "; expected the run's seed 0x" + Long.toHexString(seed));
            Verdict v = verdict(j, at, text(j, at, "verdict"), id);
            List<GradedRuns> graded = new ArrayList<>();
            JsonNode inter = j.get("interleavings");
            if (inter != null) {
                array(j, at, "interleavings");
                for (int i = 0; i < inter.size(); i++) graded.add(graded(inter.get(i), at + "/interleavings/" + i));
            }
            Optional<String> failedSource = failure(v).map(Verdict.Fail::source);
            Optional<Counterexample> cx = failure(v).map(Verdict.Fail::counterexample);
            List<Evidence> evidence = new ArrayList<>();
            JsonNode ev = array(j, at, "evidence");
            for (int i = 0; i < ev.size(); i++) {
                String e = at + "/evidence/" + i;
                object(ev.get(i), e);
                JsonNode x = ev.get(i);
                String source = text(x, e, "source");
                String outcomeText = text(x, e, "outcome");
                Evidence.Outcome outcome = java.util.Arrays.stream(Evidence.Outcome.values()).filter(k -> k.name().equals(outcomeText)).findFirst()
                        .orElseThrow(() -> bad(e + "/outcome", "found " + Printable.quote(outcomeText) + "; expected one of "
                                + java.util.Arrays.toString(Evidence.Outcome.values())));
                int tries = whole(x, e, "tries", 0, MAX_COUNT), judged = whole(x, e, "judged", 0, MAX_COUNT);
                int cases = whole(x, e, "cases", 0, MAX_COUNT), machines = whole(x, e, "machines", 0, MAX_COUNT);
                if (judged > tries) throw bad(e + "/judged", "found " + judged + " judged of " + tries + " tries; expected at most the tries");
                if (cases > tries) throw bad(e + "/cases", "found " + cases + " cases of " + tries + " tries; expected at most the tries");
                if (outcome == Evidence.Outcome.PASSED && judged == 0)
                    throw bad(e + "/judged", "found a source that passed having judged nothing; expected a pass to have reached the implementation");
                boolean first = evidence.isEmpty();
                evidence.add(new Evidence(source, outcome, tries, judged,
                        outcome == Evidence.Outcome.FAILED && failedSource.equals(Optional.of(source)) ? cx : Optional.empty(),
                        optionalText(x, e, "reason"), first ? graded : List.of(), cases, machines));
            }
            RuleResult r = new RuleResult(id, text(j, at, "title"), level, optionalText(j, at, "spec"), kernel, v, evidence,
                    optionalText(j, at, "replay"));
            judgedAsStated(j, at, r);
            return r;
        }

        /**
         * The rule's verdict is the one its evidence gives (as {@link Verdict#of}), but for a
         * waiver's, and its totals are the evidence's: a shard cannot say PASS of what it did not
         * show. NOT-VERIFIED may stand for any evidence: it claims nothing.
         */
        void judgedAsStated(JsonNode j, String at, RuleResult r) {
            long tries = 0, judged = 0, cases = 0;
            int machines = 0;
            for (Evidence e : r.evidence()) {
                tries += e.tries();
                judged += e.judged();
                cases += e.cases();
                machines = Math.max(machines, e.machines());
            }
            if (tries > MAX_COUNT) throw bad(at + "/evidence", "found " + tries + " tries in all; expected at most " + MAX_COUNT);
            long[] sums = {tries, judged, cases, machines};
            String[] names = {"tries", "judged", "cases", "machines"};
            for (int k = 0; k < names.length; k++) {
                long stated = whole(j, at, names[k], 0, MAX_COUNT);
                if (stated != sums[k])
                    throw bad(at + "/" + names[k], "found " + stated + "; expected " + sums[k] + ", what its evidence adds up to");
            }
            Verdict v = r.verdict();
            if (v instanceof Verdict.NotClaimed) {
                if (r.kernel().isPresent() || !r.evidence().isEmpty())
                    throw bad(at, "found NOT-CLAIMED with a release or evidence; expected neither for a routine not claimed");
                return;
            }
            if (r.kernel().isEmpty()) throw bad(at + "/kernel", "found null for a " + v.label() + " result; expected the release judged");
            if (v instanceof Verdict.NotVerified) return;
            if (r.evidence().isEmpty())
                throw bad(at + "/evidence", "found no evidence for " + v.label() + "; expected the checks and scenarios behind it");
            String given = Verdict.labelOf(r.evidence());
            Verdict stated = v instanceof Verdict.Waived w ? w.underlying() : v instanceof Verdict.UnexpectedPass u ? new Verdict.Pass(u.tries()) : v;
            if (!stated.label().equals(given))
                throw bad(at + "/verdict", "found " + v.label() + (v instanceof Verdict.Waived ? " of " + stated.label() : "") + " but its evidence gives "
                        + given + "; expected the verdict its evidence gives");
            String source = stated instanceof Verdict.Fail f ? f.source() : stated instanceof Verdict.Error e ? e.source()
                    : stated instanceof Verdict.InternalError ie ? ie.source() : null;
            Evidence.Outcome of = stated instanceof Verdict.Fail ? Evidence.Outcome.FAILED : stated instanceof Verdict.Error
                    ? Evidence.Outcome.ERRORED : Evidence.Outcome.KIT_FAILED;
            if (source != null && r.evidence().stream().noneMatch(e -> e.outcome() == of && e.source().equals(source)))
                throw bad(at + "/source", "found " + Printable.quote(source) + "; expected a source of its evidence that is " + of);
            int statedTries = stated instanceof Verdict.Pass p ? p.tries() : stated instanceof Verdict.Fail f ? f.tries() : (int) tries;
            if (statedTries != tries)
                throw bad(at + "/tries", "found " + statedTries + " tries in the verdict; expected " + tries + ", what its evidence adds up to");
        }

        Optional<Verdict.Fail> failure(Verdict v) {
            if (v instanceof Verdict.Fail f) return Optional.of(f);
            if (v instanceof Verdict.Waived w && w.underlying() instanceof Verdict.Fail f) return Optional.of(f);
            return Optional.empty();
        }

        Verdict verdict(JsonNode j, String at, String label, String id) {
            int tries = whole(j, at, "tries", 0, MAX_COUNT);
            return switch (label) {
                case "PASS" -> new Verdict.Pass(tries);
                case "FAIL" -> new Verdict.Fail(counterexample(object(field(j, at, "counterexample"), at + "/counterexample"), at + "/counterexample"),
                        tries, text(j, at, "source"));
                case "ERROR" -> new Verdict.Error(text(j, at, "reason"), text(j, at, "source"));
                case "INTERNAL-ERROR" -> new Verdict.InternalError(text(j, at, "reason"), text(j, at, "source"));
                case "NOT-VERIFIED" -> new Verdict.NotVerified(text(j, at, "reason"));
                case "NOT-CLAIMED" -> {
                    String routine = text(j, at, "routine");
                    if (Routine.byId(routine).isEmpty())
                        throw bad(at + "/routine", "found " + Printable.quote(routine) + "; expected a routine id such as local-spread");
                    yield new Verdict.NotClaimed(routine, optionalText(j, at, "reason"));
                }
                case "WAIVED" -> {
                    String under = text(j, at, "underlying");
                    if (!under.equals("FAIL") && !under.equals("ERROR"))
                        throw bad(at + "/underlying", "found " + Printable.quote(under) + "; expected FAIL or ERROR, what a waiver accepts");
                    yield new Verdict.Waived(waiver(j, at, id), verdict(j, at, under, id));
                }
                case "UNEXPECTED-PASS" -> new Verdict.UnexpectedPass(waiver(j, at, id), tries);
                default -> throw bad(at + "/verdict", "found " + Printable.quote(label) + "; expected one of PASS, FAIL, ERROR, NOT-CLAIMED,"
                        + " WAIVED, UNEXPECTED-PASS, NOT-VERIFIED, INTERNAL-ERROR");
            };
        }

        Waivers.Waiver waiver(JsonNode j, String at, String id) {
            JsonNode w = object(field(j, at, "waiver"), at + "/waiver");
            String expires = text(w, at + "/waiver", "expires");
            LocalDate date;
            try {
                date = LocalDate.parse(expires);
            } catch (DateTimeParseException e) {
                throw bad(at + "/waiver/expires", "found " + Printable.quote(expires) + "; expected a date YYYY-MM-DD");
            }
            return new Waivers.Waiver(id, date, optionalText(w, at + "/waiver", "reason"), optionalText(w, at + "/waiver", "location"));
        }

        Counterexample counterexample(JsonNode x, String at) {
            return new Counterexample(optionalText(x, at, "call"), optionalText(x, at, "expected"), optionalText(x, at, "actual"),
                    optionalText(x, at, "hint"), nullableText(x, at, "machine"), optionalText(x, at, "says"));
        }

        GradedRuns graded(JsonNode g, String at) {
            object(g, at);
            String name = text(g, at, "table");
            OutcomeTable table = OutcomeTable.named(name).orElseThrow(() -> bad(at + "/table", "found " + Printable.quote(name)
                    + "; expected the name of an outcome table"));
            TreeMap<Outcome, Integer> counts = new TreeMap<>();
            JsonNode outcomes = array(g, at, "outcomes");
            for (int i = 0; i < outcomes.size(); i++) {
                String o = at + "/outcomes/" + i;
                JsonNode x = object(outcomes.get(i), o);
                int n = whole(x, o, "count", 0, MAX_COUNT);
                String id = text(x, o, "outcome");
                Outcome outcome = java.util.Arrays.stream(Outcome.values()).filter(k -> k.id().equals(id)).findFirst()
                        .orElseThrow(() -> bad(o + "/outcome", "found " + Printable.quote(id) + "; expected an outcome of table " + name));
                if (n > 0) counts.put(outcome, n);
            }
            return new GradedRuns(table, whole(g, at, "explorations", 0, MAX_COUNT), counts);
        }

        Workload workload(JsonNode w) {
            return new Workload(wholeLong(w, "/workload", "calls", 0, MAX_CALLS), wholeLong(w, "/workload", "requests", 0, MAX_CALLS),
                    wholeLong(w, "/workload", "batches", 0, MAX_CALLS), seconds(w, "seconds"), seconds(w, "insideImplementationSeconds"),
                    seconds(w, "kitCpuSeconds"));
        }

        Duration seconds(JsonNode w, String name) {
            JsonNode v = field(w, "/workload", name);
            if (!v.isNumber() || !(v.asDouble() >= 0 && v.asDouble() <= MAX_SECONDS))
                throw bad("/workload/" + name, "found " + Printable.quote(v.toString()) + "; expected seconds, 0 to " + (long) MAX_SECONDS);
            return Duration.ofMillis(Math.round(v.asDouble() * 1000));
        }

        Instant instant(JsonNode o, String name) {
            String t = text(o, "", name);
            try {
                return Instant.parse(t);
            } catch (DateTimeParseException e) {
                throw bad("/" + name, "found " + Printable.quote(t) + "; expected an instant such as 2026-06-01T10:00:00Z");
            }
        }

        KernelRelease release(String text, String at) {
            try {
                return KernelRelease.modelled(text);
            } catch (IllegalArgumentException e) {
                throw bad(at, Printable.of(String.valueOf(e.getMessage())));
            }
        }

        // ------------------------------------------------------------ typed fields

        JsonNode field(JsonNode o, String at, String name) {
            JsonNode v = o.get(name);
            if (v == null) throw bad(at + "/" + name, "missing; expected " + EXPECTED + ", which has it");
            return v;
        }

        JsonNode object(JsonNode v, String at) {
            if (!v.isObject()) throw bad(at, "found " + kind(v) + "; expected an object");
            return v;
        }

        JsonNode array(JsonNode o, String at, String name) {
            JsonNode v = field(o, at, name);
            if (!v.isArray()) throw bad(at + "/" + name, "found " + kind(v) + "; expected an array");
            return v;
        }

        /** A string value, made printable (FMT-19): a shard's text reaches the console and every report. */
        String string(JsonNode v, String at) {
            if (!v.isTextual()) throw bad(at, "found " + kind(v) + "; expected a string");
            return Printable.ofLines(v.asText());
        }

        String text(JsonNode o, String at, String name) {
            return string(field(o, at, name), at + "/" + name);
        }

        /** A string that may be left out: empty then. */
        String optionalText(JsonNode o, String at, String name) {
            JsonNode v = o.get(name);
            return v == null || v.isNull() ? "" : string(v, at + "/" + name);
        }

        /** A string that is there, or null. */
        Optional<String> nullableText(JsonNode o, String at, String name) {
            JsonNode v = field(o, at, name);
            return v.isNull() ? Optional.empty() : Optional.of(string(v, at + "/" + name));
        }

        boolean bool(JsonNode o, String at, String name) {
            JsonNode v = field(o, at, name);
            if (!v.isBoolean()) throw bad(at + "/" + name, "found " + kind(v) + "; expected true or false");
            return v.asBoolean();
        }

        int whole(JsonNode o, String at, String name, int min, int max) {
            return (int) wholeLong(o, at, name, min, max);
        }

        long wholeLong(JsonNode o, String at, String name, long min, long max) {
            JsonNode v = field(o, at, name);
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max)
                throw bad(at + "/" + name, "found " + Printable.quote(v.toString()) + "; expected a whole number " + min + " to " + max);
            return v.asLong();
        }

        static String kind(JsonNode v) {
            if (v.isNull()) return "null";
            if (v.isObject()) return "an object";
            if (v.isArray()) return "an array";
            if (v.isTextual()) return "a string " + Printable.quote(v.asText());
            return Printable.quote(v.toString());
        }
    }
}
