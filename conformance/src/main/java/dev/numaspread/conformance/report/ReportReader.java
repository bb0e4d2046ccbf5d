package dev.numaspread.conformance.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Counterexample;
import dev.numaspread.conformance.certify.Evidence;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.certify.Waivers;
import dev.numaspread.conformance.certify.Workload;
import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.model.hotplug.Outcome;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads a {@code report.json} that {@link ReportWriter} wrote back into the {@link Certificate}
 * it says, so certificates can be joined ({@code numaspread merge-reports}) and written again in
 * every format. What the file does not hold comes back as the writer would show it: the
 * interleavings of a rule are its first source's, a counterexample belongs to the source its
 * verdict names.
 */
public final class ReportReader {
    private ReportReader() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A report that is not one {@link ReportWriter} wrote: {@code file: what was found; what was expected}. */
    public static final class BadReport extends IllegalArgumentException {
        BadReport(String message) {
            super(message);
        }
    }

    /**
     * The certificate {@code file} holds.
     *
     * @throws BadReport when the file cannot be read or is not a report numaspread wrote
     */
    public static Certificate read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new BadReport(file + ": cannot read (" + e.getMessage() + "); expected a report.json of numaspread certify");
        }
        return parse(file.toString(), text);
    }

    /** The certificate {@code text} holds; {@code where} names it in errors. */
    public static Certificate parse(String where, String text) {
        JsonNode o;
        try {
            o = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BadReport(where + ":" + e.getLocation().getLineNr() + ": not JSON (" + e.getOriginalMessage()
                    + "); expected a report.json of numaspread certify");
        }
        Reader r = new Reader(where);
        try {
            return r.certificate(o);
        } catch (BadReport e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BadReport(where + ": " + r.at + ": " + e.getMessage() + "; expected a report.json of numaspread certify");
        }
    }

    private static final class Reader {
        final String where;
        String at = "top";

        Reader(String where) {
            this.where = where;
        }

        Certificate certificate(JsonNode o) {
            String suite = text(o, "suiteVersion");
            List<Claim> claims = new ArrayList<>();
            for (JsonNode c : array(o, "claims")) claims.add(Claim.of(text(c, "routine"), text(c, "kernel")));
            at = "settings";
            JsonNode s = field(o, "settings");
            Settings settings = new Settings(s.path("tries").asInt(), seed(text(s, "seed")), Duration.ofSeconds(s.path("budgetSeconds").asLong()),
                    Optional.empty(), s.path("exhaustive").asInt(0), s.has("shard") ? Shard.parse(text(s, "shard")) : Shard.WHOLE);
            List<RuleResult> results = new ArrayList<>();
            for (JsonNode j : array(o, "rules")) results.add(rule(j));
            at = "notes";
            List<String> notes = new ArrayList<>();
            for (JsonNode n : array(o, "notes")) notes.add(n.asText());
            at = "workload";
            JsonNode w = o.path("workload");
            Workload workload = w.isMissingNode() ? Workload.NONE : new Workload(w.path("calls").asLong(), w.path("requests").asLong(),
                    w.path("batches").asLong(), seconds(w, "seconds"), seconds(w, "insideImplementationSeconds"), seconds(w, "kitCpuSeconds"));
            at = "started";
            return new Certificate(text(o, "implementation"), text(o, "implSpec"), claims, suite, settings,
                    Instant.parse(text(o, "started")), Instant.parse(text(o, "finished")), results, notes, workload);
        }

        RuleResult rule(JsonNode j) {
            at = "rule " + j.path("id").asText("?") + (j.path("kernel").isTextual() ? " (kernel " + j.path("kernel").asText() + ")" : "");
            Optional<KernelRelease> kernel = j.path("kernel").isTextual() ? Optional.of(KernelRelease.parse(j.get("kernel").asText()))
                    : Optional.empty();
            Verdict v = verdict(j, text(j, "verdict"));
            List<GradedRuns> graded = new ArrayList<>();
            for (JsonNode g : j.path("interleavings")) graded.add(graded(g));
            Optional<String> failedSource = v instanceof Verdict.Fail f ? Optional.of(f.source())
                    : v instanceof Verdict.Waived w && w.underlying() instanceof Verdict.Fail f ? Optional.of(f.source()) : Optional.empty();
            Optional<Counterexample> cx = v instanceof Verdict.Fail f ? Optional.of(f.counterexample())
                    : v instanceof Verdict.Waived w && w.underlying() instanceof Verdict.Fail f ? Optional.of(f.counterexample()) : Optional.empty();
            List<Evidence> evidence = new ArrayList<>();
            for (JsonNode e : array(j, "evidence")) {
                String source = text(e, "source");
                Evidence.Outcome outcome = Evidence.Outcome.valueOf(text(e, "outcome"));
                boolean first = evidence.isEmpty();
                evidence.add(new Evidence(source, outcome, e.path("tries").asInt(), e.path("judged").asInt(),
                        outcome == Evidence.Outcome.FAILED && failedSource.equals(Optional.of(source)) ? cx : Optional.empty(),
                        e.path("reason").asText(""), first ? graded : List.of(), e.path("cases").asInt(0), e.path("machines").asInt(0)));
            }
            return new RuleResult(text(j, "id"), j.path("title").asText(""), text(j, "level"), j.path("spec").asText(""), kernel, v, evidence,
                    j.path("replay").asText(""));
        }

        Verdict verdict(JsonNode j, String label) {
            return switch (label) {
                case "PASS" -> new Verdict.Pass(j.path("tries").asInt());
                case "FAIL" -> new Verdict.Fail(counterexample(field(j, "counterexample")), j.path("tries").asInt(), text(j, "source"));
                case "ERROR" -> new Verdict.Error(text(j, "reason"), text(j, "source"));
                case "INTERNAL-ERROR" -> new Verdict.InternalError(text(j, "reason"), text(j, "source"));
                case "NOT-VERIFIED" -> new Verdict.NotVerified(text(j, "reason"));
                case "NOT-CLAIMED" -> new Verdict.NotClaimed(text(j, "routine"));
                case "WAIVED" -> new Verdict.Waived(waiver(j), verdict(j, text(j, "underlying")));
                case "UNEXPECTED-PASS" -> new Verdict.UnexpectedPass(waiver(j), j.path("tries").asInt());
                default -> throw new IllegalArgumentException("verdict \"" + label + "\"");
            };
        }

        Waivers.Waiver waiver(JsonNode j) {
            JsonNode w = field(j, "waiver");
            return new Waivers.Waiver(text(j, "id"), LocalDate.parse(text(w, "expires")), w.path("reason").asText(""), w.path("location").asText(""));
        }

        Counterexample counterexample(JsonNode x) {
            Optional<String> machine = x.path("machine").isTextual() ? Optional.of(x.get("machine").asText()) : Optional.empty();
            return new Counterexample(x.path("call").asText(""), x.path("expected").asText(""), x.path("actual").asText(""),
                    x.path("hint").asText(""), machine, x.path("says").asText(""));
        }

        GradedRuns graded(JsonNode g) {
            String name = text(g, "table");
            OutcomeTable table = OutcomeTable.named(name).orElseThrow(() -> new IllegalArgumentException("outcome table \"" + name + "\""));
            TreeMap<Outcome, Integer> counts = new TreeMap<>();
            for (JsonNode x : array(g, "outcomes")) {
                int n = x.path("count").asInt();
                String id = text(x, "outcome");
                Outcome outcome = java.util.Arrays.stream(Outcome.values()).filter(k -> k.id().equals(id)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("outcome \"" + id + "\""));
                if (n > 0) counts.put(outcome, n);
            }
            return new GradedRuns(table, g.path("explorations").asInt(), counts);
        }

        static long seed(String s) {
            String t = s.strip();
            if (t.startsWith("0x")) return Long.parseUnsignedLong(t.substring(2), 16);
            return Long.parseLong(t);
        }

        static Duration seconds(JsonNode w, String name) {
            return Duration.ofMillis(Math.round(w.path(name).asDouble() * 1000));
        }

        JsonNode field(JsonNode o, String name) {
            JsonNode v = o.get(name);
            if (v == null || v.isNull()) throw new IllegalArgumentException("no \"" + name + "\"");
            return v;
        }

        String text(JsonNode o, String name) {
            JsonNode v = field(o, name);
            if (!v.isValueNode()) throw new IllegalArgumentException("\"" + name + "\" is not a value");
            return v.asText();
        }

        Iterable<JsonNode> array(JsonNode o, String name) {
            JsonNode v = o.get(name);
            if (v == null || !v.isArray()) throw new IllegalArgumentException("no array \"" + name + "\"");
            return v;
        }
    }
}
