package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.HasId;
import dev.numaspread.model.input.InputFile;
import dev.numaspread.model.input.InputText;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads and writes {@code .topo} files: {@code numactl -H} output pasted verbatim plus a few
 * directives (spec/formats.md FMT-5 to FMT-11, which give the grammar).
 *
 * <p>Reading never returns a half-built topology: it returns a {@link TopoDocument} or throws
 * {@link InvalidTopologyException} whose message is {@code file:line: found; expected}. Writing
 * gives the canonical text: reading it back gives an equal {@link Topology} (FMT-11).
 *
 * <p>Over 450 lines on purpose (issue 26): the {@code .topo} grammar, a method per kind of line; the
 * machine is built by {@link TopoDraft}.
 */
public final class TopoFormat {

    private TopoFormat() {}

    private static final String DIRECTIVES = "topology, source, note, possible, present, online, isolated, smt, siblings, package,"
            + " packages, cluster, cpu-model, arch, llc, die, node-of, memless, expect, numactl:, lscpu-p:";

    /** Reads a file in the mode its {@code expect} line asks for (FMT-9). */
    public static TopoDocument read(Path file) {
        return read(file, Optional.empty());
    }

    /**
     * Reads a file, kernel rules checked in {@code mode} when given, else as the file asks. Only a
     * regular file of at most {@link InputFile#MAX_TEXT_BYTES} is read (FMT-17), as UTF-8 text (FMT-18).
     */
    public static TopoDocument read(Path file, Optional<Mode> mode) {
        List<String> lines;
        try {
            lines = InputText.lines(InputFile.read(file, InputFile.MAX_TEXT_BYTES, "a .topo file"), file.toString());
        } catch (InvalidInputException e) {
            throw InvalidTopologyException.of(e);
        }
        return read(lines, file.toString(), mode);
    }

    /** Reads {@code text}, naming {@code fileName} in messages, in the mode its {@code expect} line asks for. */
    public static TopoDocument read(String text, String fileName) {
        return read(text, fileName, Optional.empty());
    }

    /** Reads {@code text}, kernel rules checked in {@code mode} when given, else as the file asks. */
    public static TopoDocument read(String text, String fileName, Optional<Mode> mode) {
        List<String> lines;
        try {
            lines = InputText.lines(text, fileName);
        } catch (InvalidInputException e) {
            throw InvalidTopologyException.of(e);
        }
        return read(lines, fileName, mode);
    }

    /**
     * Reads the lines: each is split into tokens at spaces and tabs, and each number is checked
     * against its limit at its token (FMT-16), so nothing is allocated for a number before it is
     * known to fit. No regular expression runs over a line.
     */
    private static TopoDocument read(List<String> lines, String fileName, Optional<Mode> mode) {
        TopoDraft d = new TopoDraft(fileName);
        boolean inLscpu = false;
        List<String> lscpuColumns = null;
        boolean sawDirective = false;
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i);
            if (inLscpu) {
                Line l = Line.of(fileName, i + 1, raw);
                if (l.isBlank()) { inLscpu = false; continue; }
                String t = raw.strip();
                if (t.startsWith("#")) {
                    String h = t.substring(1).strip();
                    if (h.startsWith("CPU,") || h.equals("CPU")) lscpuColumns = Arrays.asList(h.split(",", -1));
                    continue;
                }
                d.lscpuRow(lscpuRow(l, lscpuColumns));
                continue;
            }
            Line l = Line.of(fileName, i + 1, stripComment(raw));
            if (l.isBlank()) continue;
            SourcePosition at = l.at();
            String rest = l.restAfter(0);
            switch (l.word(0)) {
                case "topology" -> {
                    if (sawDirective)
                        throw new InvalidTopologyException(at.where(), "'topology' after other lines; expected it as the first directive");
                    d.name(rest, at);
                }
                case "source" -> d.source(textOf(raw, "source"));
                case "note" -> d.note(textOf(raw, "note"));
                case "possible" -> d.possible(list(rest, at), at);
                case "present" -> d.present(list(rest, at), at);
                case "online" -> d.online(list(rest, at), at);
                case "isolated" -> list(rest, at); // accepted; no routine modelled so far reads it
                case "smt" -> smt(d, l);
                case "siblings" -> {
                    List<CpuSet> groups = new ArrayList<>();
                    for (int k = 1; k < l.size(); k++) groups.add(list(l.word(k), at));
                    if (groups.isEmpty()) throw new InvalidTopologyException(at.where(), "'siblings' without groups; expected e.g. 'siblings 0,64 1,65' or 'siblings 0-1 2-3'");
                    d.siblings(groups, at);
                }
                case "package" -> pkg(d, l);
                case "packages" -> packages(d, l);
                case "cluster" -> cluster(d, l);
                case "cpu-model" -> cpuModel(d, l);
                case "arch" -> arch(d, l);
                case "llc", "die" -> { } // accepted: cache and die groups do not change any modelled routine
                case "node-of" -> nodeOf(d, l);
                case "memless" -> d.memless(nodeList(rest, at), at);
                case "expect" -> {
                    if (l.size() == 1) throw new InvalidTopologyException(at.where(), "'expect' without tags; expected e.g. 'expect asymmetric'");
                    List<String> tags = new ArrayList<>();
                    for (int k = 1; k < l.size(); k++) tags.add(l.word(k));
                    d.expect(tags);
                }
                case "numactl:" -> { }
                case "lscpu-p:" -> { inLscpu = true; lscpuColumns = null; }
                case "available:" -> available(d, l);
                case "node" -> numactlNode(d, l);
                case "No" -> {
                    if (!l.words().equals(List.of("No", "distance", "information", "available."))) throw unknown(l);
                    d.noDistanceInformation(at);
                }
                default -> {
                    if (!isDistanceRow(l)) throw unknown(l);
                    distanceRow(d, l);
                }
            }
            sawDirective = true;
        }
        return d.build(mode);
    }

    /** One line split at spaces and tabs; each word keeps its column for messages. */
    private record Line(String file, int number, String text, List<String> words, int[] cols) {
        static Line of(String file, int number, String text) {
            List<String> words = new ArrayList<>();
            int[] cols = new int[8];
            int i = 0, n = text.length();
            while (i < n) {
                while (i < n && isBlank(text.charAt(i))) i++;
                int start = i;
                while (i < n && !isBlank(text.charAt(i))) i++;
                if (i > start) {
                    if (words.size() == cols.length) cols = Arrays.copyOf(cols, 2 * cols.length);
                    cols[words.size()] = start + 1;
                    words.add(text.substring(start, i));
                }
            }
            return new Line(file, number, text, words, cols);
        }

        static boolean isBlank(char c) {
            return c == ' ' || c == '\t';
        }

        boolean isBlank() {
            return words.isEmpty();
        }

        int size() {
            return words.size();
        }

        String word(int k) {
            return words.get(k);
        }

        /** The text after word {@code k}, stripped. */
        String restAfter(int k) {
            return k + 1 < words.size() ? text.substring(cols[k + 1] - 1).strip() : "";
        }

        /** The text from word {@code k} on, stripped. */
        String from(int k) {
            return k < words.size() ? text.substring(cols[k] - 1).strip() : "";
        }

        /** The whole line, stripped, for messages. */
        String stripped() {
            return text.strip();
        }

        SourcePosition at() {
            return SourcePosition.line(file, number);
        }

        /** {@code file:line:col} of word {@code k}. */
        String whereWord(int k) {
            return file + ":" + number + ":" + cols[k];
        }
    }

    /** A {@code #} starts a comment at the start of a line or after white space. */
    private static String stripComment(String line) {
        for (int i = 0; i < line.length(); i++)
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) return line.substring(0, i);
        return line;
    }

    /** Free text after the directive word, comments included: sources cite issue numbers like {@code #22}. */
    private static String textOf(String raw, String word) {
        String t = raw.strip();
        return t.length() > word.length() ? t.substring(word.length()).strip() : "";
    }

    private static InvalidTopologyException unknown(Line l) {
        return new InvalidTopologyException(l.at().where(), "unknown line " + Printable.quote(l.stripped())
                + "; expected numactl -H output or a directive (" + DIRECTIVES + ")");
    }

    static CpuSet list(String text, SourcePosition at) {
        try {
            return CpuSet.parseList(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(at.where(), e.getMessage());
        }
    }

    static NodeMask nodeList(String text, SourcePosition at) {
        try {
            return NodeMask.parseList(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(at.where(), e.getMessage());
        }
    }

    /**
     * Word {@code k} of {@code l} as a whole number in {@code min..max} ({@code min} is 0 or -1);
     * refused at its column otherwise, naming the limit ({@code limit}, e.g. "MAX_NUMNODES 1024").
     */
    private static int number(Line l, int k, String what, long min, long max, String limit) {
        String w = l.word(k);
        boolean negative = w.startsWith("-") && min < 0;
        long v = InputText.decimalValue(negative ? w.substring(1) : w);
        if (v < 0)
            throw new InvalidTopologyException(l.whereWord(k), what + " " + Printable.quote(w) + "; expected a whole number");
        if (negative) v = -v;
        if (v < min || v > max)
            throw new InvalidTopologyException(l.whereWord(k), what + " " + Printable.of(Printable.cut(w)) + "; expected " + min + "-" + max
                    + (limit.isEmpty() ? "" : " (" + limit + ", spec/formats.md FMT-16)"));
        return (int) v;
    }

    private static int nodeId(Line l, int k) {
        return number(l, k, "node id", 0, Numa.MAX_NUMNODES - 1, "MAX_NUMNODES " + Numa.MAX_NUMNODES);
    }

    private static int count(Line l, int k, String what) {
        return number(l, k, what, 1, CpuSet.NR_CPUS, "NR_CPUS " + CpuSet.NR_CPUS);
    }

    private static void smt(TopoDraft d, Line l) {
        SourcePosition at = l.at();
        String expected = "; expected 'smt none', 'smt W adjacent' or 'smt W stride S'";
        if (l.size() == 2 && l.word(1).equals("none")) d.smtNone(at);
        else if (l.size() == 3 && l.word(2).equals("adjacent")) d.smtAdjacent(number(l, 1, "smt width", 1, 64, "threads per core"), at);
        else if (l.size() == 4 && l.word(2).equals("stride"))
            d.smtStride(number(l, 1, "smt width", 1, 64, "threads per core"), count(l, 3, "smt stride"), at);
        else throw new InvalidTopologyException(at.where(), Printable.quote(l.stripped()) + expected);
    }

    private static void pkg(TopoDraft d, Line l) {
        if (l.size() < 4 || !l.word(2).equals("cpus"))
            throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + "; expected 'package ID cpus LIST' (e.g. 'package 36 cpus 0-63')");
        d.pkg(number(l, 1, "package id", -1, Integer.MAX_VALUE, ""), list(l.from(3), l.at()), l.at());
    }

    private static void packages(TopoDraft d, Line l) {
        if (l.size() == 2 && l.word(1).equals("per-node")) d.packagesPerNode(l.at());
        else if (l.size() == 4 && l.word(1).equals("every") && l.word(3).equals("cores")) d.packagesEvery(count(l, 2, "core count"), l.at());
        else throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + "; expected 'packages per-node' or 'packages every K cores'");
    }

    /** {@code cpu-model WORD} (FMT-20): one of the models a hook tests, or {@code other}. */
    private static void cpuModel(TopoDraft d, Line l) {
        d.cpuModel(idOf(l, CpuModel.class, "'cpu-model MODEL' with MODEL one of " + CpuModel.words(), CpuModel.words()
                + " (the x86 models whose scheduler distances a kernel hook rewrites; every other CPU is 'other', the default)"), l.at());
    }

    /** {@code arch WORD} (FMT-6): {@code x86}, the default, or {@code arm64}. */
    private static void arch(TopoDraft d, Line l) {
        d.arch(idOf(l, Arch.class, "'arch ARCH' with ARCH " + Arch.words(),
                Arch.words() + " (the architecture decides an offline CPU's cluster mask; x86 is the default)"), l.at());
    }

    /** The constant of {@code type} a two-word line names by its id ({@code arch arm64}); {@code usage} and {@code ids} are what its errors expect. */
    private static <E extends Enum<E> & HasId> E idOf(Line l, Class<E> type, String usage, String ids) {
        if (l.size() != 2) throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + "; expected " + usage);
        return HasId.byId(type, l.word(1)).orElseThrow(() -> new InvalidTopologyException(l.at().where(),
                l.word(0) + " " + Printable.quote(l.word(1)) + "; expected " + ids));
    }

    private static void cluster(TopoDraft d, Line l) {
        if (l.size() >= 3 && l.word(1).equals("cpus")) d.cluster(list(l.from(2), l.at()), l.at());
        else if (l.size() == 4 && l.word(1).equals("every") && l.word(3).equals("cores")) d.clustersEvery(count(l, 2, "core count"), l.at());
        else throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + "; expected 'cluster cpus LIST' or 'cluster every K cores'");
    }

    private static void nodeOf(TopoDraft d, Line l) {
        if (l.size() < 3)
            throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + "; expected 'node-of LIST NODE' (e.g. 'node-of 16-87 0')");
        int node = nodeId(l, l.size() - 1);
        String text = l.text().strip();
        d.nodeOf(list(text.substring("node-of".length(), text.length() - l.word(l.size() - 1).length()).strip(), l.at()), node, l.at());
    }

    /** {@code available: N nodes (LIST)}; the list may be left out. */
    private static void available(TopoDraft d, Line l) {
        String expected = "; expected 'available: N nodes (LIST)'";
        if (l.size() < 3 || !(l.word(2).equals("nodes") || l.word(2).equals("node")))
            throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + expected);
        int count = number(l, 1, "node count", 0, Numa.MAX_NUMNODES, "MAX_NUMNODES " + Numa.MAX_NUMNODES);
        String rest = l.from(3);
        NodeMask nodes;
        if (rest.isEmpty()) nodes = NodeMask.range(0, count - 1);
        else if (rest.startsWith("(") && rest.endsWith(")")) nodes = nodeList(rest.substring(1, rest.length() - 1), l.at());
        else throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + expected);
        d.available(nodes, count, l.at());
    }

    /** The numactl lines that start with {@code node}: cpus, size, free, {@code node distances:}, the table's header. */
    private static void numactlNode(TopoDraft d, Line l) {
        if (l.size() == 2 && l.word(1).equals("distances:")) return;
        if (l.size() >= 3 && l.word(2).startsWith("cpus:")) {
            int node = nodeId(l, 1);
            String text = l.text();
            d.nodeCpus(node, list(text.substring(text.indexOf("cpus:") + "cpus:".length()).strip(), l.at()), l.at());
        } else if (l.size() >= 3 && l.word(2).equals("size:")) {
            int node = nodeId(l, 1);
            String size = l.from(3);
            if (size.equals("<not available>")) return;
            String digits = size.endsWith("MB") ? size.substring(0, size.length() - 2).strip() : "";
            long mib = InputText.decimalValue(digits);
            if (mib < 0) throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + "; expected 'node N size: S MB'");
            if (mib > Node.MAX_SIZE_MIB)
                throw new InvalidTopologyException(l.whereWord(3), "node size " + Printable.cut(digits) + " MB; expected 0-" + Node.MAX_SIZE_MIB
                        + " MB (a 64-bit physical address space, spec/formats.md FMT-16)");
            d.nodeSize(node, mib, l.at());
        } else if (l.size() >= 3 && l.word(2).equals("free:")) {
            nodeId(l, 1);   // free memory changes from minute to minute and decides nothing here
        } else if (l.size() >= 2 && l.words().stream().skip(1).allMatch(w -> InputText.decimalValue(w) >= 0)) {
            if (l.size() - 1 > Numa.MAX_NUMNODES)
                throw new InvalidTopologyException(l.whereWord(Numa.MAX_NUMNODES + 1), "a distance header of more than " + Numa.MAX_NUMNODES
                        + " nodes; expected at most " + Numa.MAX_NUMNODES + " (MAX_NUMNODES, spec/formats.md FMT-16)");
            int[] ids = new int[l.size() - 1];
            for (int k = 1; k < l.size(); k++) ids[k - 1] = nodeId(l, k);
            d.distanceHeader(ids, l.at());
        } else {
            throw new InvalidTopologyException(l.at().where(), Printable.quote(l.stripped()) + "; expected a numactl line: 'node N cpus: LIST', 'node N size: S MB',"
                    + " 'node N free: F MB', 'node distances:' or the header 'node 0 1 ...'");
        }
    }

    /** {@code ID: D D ...}, the colon right after the id (numactl prints {@code   0:  10  21}). */
    private static boolean isDistanceRow(Line l) {
        String w = l.word(0);
        int colon = w.indexOf(':');
        return colon > 0 && InputText.decimalValue(w.substring(0, colon)) >= 0;
    }

    private static void distanceRow(TopoDraft d, Line l) {
        String first = l.word(0);
        int colon = first.indexOf(':');
        // "0:10 21" (no space after the colon) splits as "0:10", "21": the first value rides on the id's word.
        Line ids = Line.of(l.file(), l.number(), l.text().replaceFirst(":", " "));
        int node = nodeId(ids, 0);
        int values = ids.size() - 1;
        if (values > Numa.MAX_NUMNODES)
            throw new InvalidTopologyException(ids.whereWord(Numa.MAX_NUMNODES + 1), "a distance row of more than " + Numa.MAX_NUMNODES
                    + " values; expected at most " + Numa.MAX_NUMNODES + " (MAX_NUMNODES, spec/formats.md FMT-16)");
        int[] row = new int[values];
        for (int k = 0; k < values; k++)
            row[k] = number(ids, k + 1, "distance", 0, DistanceTable.MAX_VALUE, "");
        d.distanceRow(node, row, l.at());
    }

    private static TopoDraft.LscpuRow lscpuRow(Line l, List<String> columns) {
        SourcePosition at = l.at();
        String line = l.stripped();
        List<String> cols = columns != null ? columns : List.of("CPU", "Core", "Socket", "Node");
        String[] f = line.split(",", -1);
        int cpu = -1, core = -1, socket = -1, node = -1, cluster = -1;
        boolean online = true;
        for (int i = 0; i < Math.min(cols.size(), f.length); i++) {
            String v = f[i].strip();
            switch (cols.get(i).strip()) {
                case "CPU" -> cpu = lscpuNumber(v, "CPU", CpuSet.NR_CPUS - 1, at);
                case "Core" -> core = lscpuNumber(v, "Core", Integer.MAX_VALUE, at);
                case "Socket" -> socket = lscpuNumber(v, "Socket", Integer.MAX_VALUE, at);
                case "Node" -> node = lscpuNumber(v, "Node", Numa.MAX_NUMNODES - 1, at);
                case "Cluster" -> cluster = lscpuNumber(v, "Cluster", Integer.MAX_VALUE, at);
                case "Online" -> online = !v.equalsIgnoreCase("N");
                default -> { }
            }
        }
        if (cpu < 0)
            throw new InvalidTopologyException(at.where(), "lscpu -p row " + Printable.quote(line) + " has no CPU; expected rows such as '0,0,0,0,,0,0,0,0' under '# CPU,Core,Socket,Node,...'");
        return new TopoDraft.LscpuRow(cpu, core, socket, node, online, cluster, at);
    }

    private static int lscpuNumber(String v, String column, long max, SourcePosition at) {
        if (v.equals("-") || v.isEmpty()) return -1;
        long n = InputText.decimalValue(v);
        if (n < 0)
            throw new InvalidTopologyException(at.where(), "lscpu -p " + column + " column " + Printable.quote(v) + "; expected a number or '-'");
        if (n > max)
            throw new InvalidTopologyException(at.where(), "lscpu -p " + column + " column " + Printable.cut(v) + "; expected 0-" + max
                    + (column.equals("CPU") ? " (NR_CPUS " + CpuSet.NR_CPUS + ")" : column.equals("Node") ? " (MAX_NUMNODES " + Numa.MAX_NUMNODES + ")" : ""));
        return (int) n;
    }

    // ------------------------------------------------------------------ writing

    /** The canonical {@code .topo} text of a machine (FMT-11). */
    public static String write(Topology t) {
        return write(TopoDocument.of(t));
    }

    /**
     * The canonical {@code .topo} text: directives first, then the numactl block; every set
     * explicit, so reading it needs no defaults. Warnings are not written: reading finds them again.
     */
    public static String write(TopoDocument doc) {
        Topology t = doc.topology();
        StringBuilder sb = new StringBuilder();
        sb.append("topology ").append(t.name()).append('\n');
        if (!t.source().isEmpty()) sb.append("source ").append(t.source()).append('\n');
        for (String n : doc.notes()) sb.append("note ").append(n).append('\n');
        if (!doc.expect().isEmpty()) sb.append("expect ").append(String.join(" ", doc.expect())).append('\n');
        sb.append("possible ").append(t.possible().toList()).append('\n');
        sb.append("present ").append(t.present().toList()).append('\n');
        sb.append("online ").append(t.online().toList()).append('\n');
        sb.append(SmtLayout.of(t).toTopoLine()).append('\n');
        if (t.arch() != Arch.X86) sb.append("arch ").append(t.arch().id()).append('\n');
        if (t.cpuModel() != CpuModel.OTHER) sb.append("cpu-model ").append(t.cpuModel().id()).append('\n');
        for (CpuPackage p : t.packages()) sb.append("package ").append(p.id()).append(" cpus ").append(p.cpus().toList()).append('\n');
        if (!t.clustersAssumed()) for (CpuSet c : t.clusters()) sb.append("cluster cpus ").append(c.toList()).append('\n');
        for (Node n : t.nodes()) {
            CpuSet offline = n.cpus().andNot(t.online());
            if (!offline.isEmpty()) sb.append("node-of ").append(offline.toList()).append(' ').append(n.id()).append('\n');
        }
        NodeMask memless = NodeMask.ofStream(t.nodes().stream().filter(n -> !n.hasMemory() && n.sizeMiB() != 0).mapToInt(Node::id));
        if (!memless.isEmpty()) sb.append("memless ").append(memless.toList()).append('\n');
        sb.append("numactl:\n");
        int[] ids = t.nodeIds();
        sb.append("available: ").append(ids.length).append(ids.length == 1 ? " node (" : " nodes (").append(t.nodeMask().toList()).append(")\n");
        for (Node n : t.nodes()) {
            CpuSet on = t.onlineCpusOf(n.id());
            sb.append("node ").append(n.id()).append(" cpus:").append(on.isEmpty() ? "" : " " + on.toList()).append('\n');
            if (n.sizeMiB() >= 0) sb.append("node ").append(n.id()).append(" size: ").append(n.sizeMiB()).append(" MB\n");
        }
        sb.append("node distances:\n");
        int width = 3;
        for (int id : ids) width = Math.max(width, Integer.toString(id).length());
        for (int a : ids) for (int b : ids) width = Math.max(width, Integer.toString(t.distance(a, b)).length());
        String cell = " %" + width + "d";
        sb.append("node");
        for (int id : ids) sb.append(String.format(cell, id));
        sb.append('\n');
        for (int a : ids) {
            sb.append(String.format("%" + width + "d:", a));
            for (int b : ids) sb.append(String.format(cell, t.distance(a, b)));
            sb.append('\n');
        }
        return sb.toString();
    }
}
