package dev.numaspread.kernel.guest;

import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The text of the channel between the host and the guest's agent and probe ({@code kernel-probe/}):
 * one request line, one answer line. A CPU list is the kernel's list syntax, {@code .} for the empty
 * set; masks are separated by {@code |}. An answer is {@code ok ...} or {@code err KIND: message}
 * (KIND: {@code invalid}, {@code unsupported}, {@code refused}, {@code internal}).
 */
final class ProbeAnswers {

    private ProbeAnswers() {}

    /** A CPU list as a request writes it. */
    static String list(CpuSet cpus) {
        return cpus.isEmpty() ? "." : cpus.toList();
    }

    static CpuSet parseList(String word) {
        return word.equals(".") ? CpuSet.EMPTY : CpuSet.parseList(word);
    }

    /** What follows {@code ok}; an {@code err} answer throws what its kind means. */
    static String body(String request, String answer) {
        if (answer.equals("ok")) return "";
        if (answer.startsWith("ok ")) return answer.substring(3);
        if (answer.startsWith("err invalid:"))
            throw new IllegalArgumentException("the probe refused '" + request + "': " + answer.substring("err invalid:".length()).strip());
        if (answer.startsWith("err unsupported:"))
            throw new UnsupportedOperationException("the probe cannot answer '" + request + "' in this kernel");
        if (answer.startsWith("err refused:")) throw new CannotBuild(answer.substring("err refused:".length()).strip());
        throw new GuestFailure("the probe failed on '" + request + "': " + answer);
    }

    static int[] ints(String body) {
        if (body.isBlank()) return new int[0];
        String[] w = body.strip().split(" ");
        int[] out = new int[w.length];
        for (int i = 0; i < w.length; i++) out[i] = parseInt(w[i]);
        return out;
    }

    // The kernel prints unsigned results (nr_cpu_ids and above mean none): keep them as Java ints.
    private static int parseInt(String w) {
        long v = Long.parseLong(w);
        return (int) v;
    }

    /** {@code 0-1|.|0-3}: one set per piece. */
    static List<CpuSet> masks(String body) {
        List<CpuSet> out = new ArrayList<>();
        if (body.isEmpty()) return out;
        for (String piece : body.split("\\|", -1)) out.add(parseList(piece));
        return out;
    }

    /** What {@code grp} answers: {@code null} or {@code NUMMASKS MASKS}. */
    record Groups(Optional<List<CpuSet>> masks, OptionalInt nummasks) {}

    static Groups groups(String body) {
        if (body.equals("null")) return new Groups(Optional.empty(), OptionalInt.empty());
        int space = body.indexOf(' ');
        int nummasks = Integer.parseInt(space < 0 ? body : body.substring(0, space));
        return new Groups(Optional.of(masks(space < 0 ? "" : body.substring(space + 1))), OptionalInt.of(nummasks));
    }

    /** What {@code grphp} answers: {@code CPU held|free NUMMASKS MASKS} or {@code CPU held|free null}. */
    static Guest.UnderHotplug underHotplug(String body) {
        String[] w = body.split(" ", 3);
        if (w.length < 3 || !(w[1].equals("held") || w[1].equals("free")))
            throw new GuestFailure("the probe's answer to grphp is '" + body + "'; expected CPU held|free GROUPS");
        return new Guest.UnderHotplug(parseInt(w[0]), w[1].equals("held"), groups(w[2]).masks());
    }

    /** What {@code irq} answers: {@code null} or {@code MASK/m|MASK/u|...}. */
    static Optional<List<AffinityDesc>> affinity(String body) {
        if (body.equals("null")) return Optional.empty();
        List<AffinityDesc> out = new ArrayList<>();
        if (body.isEmpty()) return Optional.of(out);
        for (String piece : body.split("\\|", -1)) {
            int slash = piece.lastIndexOf('/');
            out.add(new AffinityDesc(parseList(piece.substring(0, slash)), piece.substring(slash + 1).equals("m")));
        }
        return Optional.of(out);
    }

    /** The words of {@code have} that name calls, with the call each answers. */
    static final Map<String, Guest.Call> CALL_WORDS = Map.of("ls", Guest.Call.LOCAL_SPREAD, "lvl", Guest.Call.NUMA_LEVELS,
            "hop", Guest.Call.HOP_MASKS, "nth", Guest.Call.NUMA_NTH, "closest", Guest.Call.NUMA_CLOSEST,
            "nearest", Guest.Call.NUMA_NEAREST_NODE, "grp", Guest.Call.GROUP_CPUS, "mq", Guest.Call.BLK_MQ_MAP,
            "irq", Guest.Call.IRQ_AFFINITY_MASKS);

    /** What the probe found in this kernel: the {@code key=value} words and the call words of {@code have}. */
    record Have(Map<String, String> values, Map<Guest.Call, Boolean> calls, List<String> words) {}

    static Have have(String body) {
        Map<String, String> values = new java.util.TreeMap<>();
        Map<Guest.Call, Boolean> calls = new EnumMap<>(Guest.Call.class);
        for (Guest.Call c : Guest.Call.values()) calls.put(c, false);
        List<String> words = new ArrayList<>();
        for (String w : body.strip().split(" ")) {
            int eq = w.indexOf('=');
            if (eq > 0) values.put(w.substring(0, eq), w.substring(eq + 1));
            else if (!w.isEmpty()) {
                words.add(w);
                Guest.Call c = CALL_WORDS.get(w);
                if (c != null) calls.put(c, true);
            }
        }
        return new Have(values, calls, words);
    }

    /**
     * The entries of a {@code snap} answer's payload: {@code F PATH LENGTH\n} and LENGTH bytes, or
     * {@code L PATH TARGET\n}.
     *
     * @throws GuestFailure when the payload does not read so
     */
    static List<Tar.Entry> snapshot(byte[] payload) {
        List<Tar.Entry> out = new ArrayList<>();
        int i = 0;
        while (i < payload.length) {
            int nl = i;
            while (nl < payload.length && payload[nl] != '\n') nl++;
            if (nl == payload.length) throw new GuestFailure("the agent's snapshot ends inside an entry header at byte " + i);
            String header = new String(payload, i, nl - i, StandardCharsets.UTF_8);
            String[] w = header.split(" ", 3);
            if (w.length == 3 && w[0].equals("F")) {
                int len = Integer.parseInt(w[2]);
                if (nl + 1 + len > payload.length) throw new GuestFailure("the agent's snapshot entry " + w[1] + " is cut short");
                out.add(new Tar.File(w[1], java.util.Arrays.copyOfRange(payload, nl + 1, nl + 1 + len)));
                i = nl + 1 + len;
            } else if (w.length == 3 && w[0].equals("L")) {
                out.add(new Tar.Link(w[1], w[2]));
                i = nl + 1;
            } else {
                throw new GuestFailure("the agent's snapshot has an entry header '" + header + "'; expected F PATH LENGTH or L PATH TARGET");
            }
        }
        return out;
    }

    /** The request of {@code irq}: {@code irq NVECS PRE POST NSETS SIZE...}. */
    static String affinityRequest(int nvecs, int pre, int post, List<Integer> sets) {
        StringBuilder sb = new StringBuilder("irq " + nvecs + " " + pre + " " + post + " " + sets.size());
        for (int s : sets) sb.append(' ').append(s);
        return sb.toString();
    }
}
