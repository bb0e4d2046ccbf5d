package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes {@code .topo} files: {@code numactl -H} output pasted verbatim plus a few
 * directives (spec/formats.md FMT-5 to FMT-11; grammar from research/topology-anchors.md §6a).
 *
 * <p>Reading never returns a half-built topology: it returns a {@link TopoDocument} or throws
 * {@link InvalidTopologyException} whose message is {@code file:line: found; expected}. Writing
 * gives the canonical text: reading it back gives an equal {@link Topology} (FMT-11).
 */
public final class TopoFormat {

    private TopoFormat() {}

    private static final Pattern AVAILABLE = Pattern.compile("available:\\s*(\\d+)\\s+nodes?\\s*(?:\\((.*)\\))?\\s*");
    private static final Pattern NODE_CPUS = Pattern.compile("node\\s+(\\d+)\\s+cpus:(.*)");
    private static final Pattern NODE_SIZE = Pattern.compile("node\\s+(\\d+)\\s+size:\\s*(.*?)\\s*");
    private static final Pattern NODE_FREE = Pattern.compile("node\\s+(\\d+)\\s+free:.*");
    private static final Pattern HEADER = Pattern.compile("node((?:\\s+\\d+)+)\\s*");
    private static final Pattern ROW = Pattern.compile("(\\d+):(.*)");
    private static final Pattern SIZE_MB = Pattern.compile("(\\d+)\\s*MB");

    /** Reads a file in the mode its {@code expect} line asks for (FMT-9). */
    public static TopoDocument read(Path file) {
        return read(file, Optional.empty());
    }

    /** Reads a file, kernel rules checked in {@code mode} when given, else as the file asks. */
    public static TopoDocument read(Path file, Optional<Mode> mode) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidTopologyException(file.toString(), "cannot read the file (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + "); expected a readable .topo file");
        }
        return read(text, file.toString(), mode);
    }

    /** Reads {@code text}, naming {@code fileName} in messages, in the mode its {@code expect} line asks for. */
    public static TopoDocument read(String text, String fileName) {
        return read(text, fileName, Optional.empty());
    }

    /** Reads {@code text}, kernel rules checked in {@code mode} when given, else as the file asks. */
    public static TopoDocument read(String text, String fileName, Optional<Mode> mode) {
        TopoDraft d = new TopoDraft(fileName);
        String[] lines = text.replace("\0", "").split("\\R", -1);
        boolean inLscpu = false;
        List<String> lscpuColumns = null;
        boolean sawDirective = false;
        for (int i = 0; i < lines.length; i++) {
            SourcePosition at = SourcePosition.line(fileName, i + 1);
            String raw = lines[i];
            if (inLscpu) {
                String t = raw.strip();
                if (t.isEmpty()) { inLscpu = false; continue; }
                if (t.startsWith("#")) {
                    String h = t.substring(1).strip();
                    if (h.startsWith("CPU,") || h.equals("CPU")) lscpuColumns = Arrays.asList(h.split(",", -1));
                    continue;
                }
                d.lscpuRow(lscpuRow(t, lscpuColumns, at));
                continue;
            }
            String line = stripComment(raw).strip();
            if (line.isEmpty()) continue;
            String word = line.split("\\s+", 2)[0];
            String rest = line.length() > word.length() ? line.substring(word.length()).strip() : "";
            try {
                switch (word) {
                    case "topology" -> {
                        if (sawDirective)
                            throw new InvalidTopologyException(at.where(), "'topology' after other lines; expected it as the first directive");
                        d.name(rest, at);
                    }
                    case "source" -> d.source(textOf(raw, word));
                    case "note" -> d.note(textOf(raw, word));
                    case "possible" -> d.possible(list(rest, at), at);
                    case "present" -> d.present(list(rest, at), at);
                    case "online" -> d.online(list(rest, at), at);
                    case "isolated" -> list(rest, at); // accepted; no routine modelled so far reads it
                    case "smt" -> smt(d, rest, at);
                    case "siblings" -> {
                        List<CpuSet> groups = new ArrayList<>();
                        for (String g : rest.split("\\s+")) if (!g.isEmpty()) groups.add(list(g, at));
                        if (groups.isEmpty()) throw new InvalidTopologyException(at.where(), "'siblings' without groups; expected e.g. 'siblings 0,64 1,65' or 'siblings 0-1 2-3'");
                        d.siblings(groups, at);
                    }
                    case "package" -> pkg(d, rest, at);
                    case "packages" -> packages(d, rest, at);
                    case "cluster" -> cluster(d, rest, at);
                    case "llc", "die" -> { } // accepted: cache and die groups do not change any modelled routine
                    case "node-of" -> nodeOf(d, rest, at);
                    case "memless" -> d.memless(nodeList(rest, at), at);
                    case "expect" -> {
                        if (rest.isEmpty()) throw new InvalidTopologyException(at.where(), "'expect' without tags; expected e.g. 'expect asymmetric'");
                        d.expect(Arrays.asList(rest.split("\\s+")));
                    }
                    case "numactl:" -> { }
                    case "lscpu-p:" -> { inLscpu = true; lscpuColumns = null; }
                    case "available:" -> available(d, line, at);
                    case "node" -> numactlNode(d, line, at);
                    case "No" -> {
                        if (!line.replaceAll("\\s+", " ").equals("No distance information available."))
                            throw unknown(line, at);
                        d.noDistanceInformation(at);
                    }
                    default -> {
                        Matcher row = ROW.matcher(line);
                        if (!row.matches()) throw unknown(line, at);
                        d.distanceRow(Integer.parseInt(row.group(1)), numbers(row.group(2), "distance", at), at);
                    }
                }
            } catch (NumberFormatException e) {
                throw new InvalidTopologyException(at.where(), "number out of range in '" + line + "'; expected ids and distances that fit an int");
            }
            sawDirective = true;
        }
        return d.build(mode);
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

    private static InvalidTopologyException unknown(String line, SourcePosition at) {
        String shown = line.length() > 40 ? line.substring(0, 40) + "..." : line;
        return new InvalidTopologyException(at.where(), "unknown line '" + shown + "'; expected numactl -H output or a directive"
                + " (topology, source, note, possible, present, online, isolated, smt, siblings, package, packages, cluster, llc, die,"
                + " node-of, memless, expect, numactl:, lscpu-p:)");
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

    private static int number(String s, String what, SourcePosition at) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new InvalidTopologyException(at.where(), what + " '" + s + "'; expected a whole number");
        }
    }

    private static int[] numbers(String text, String what, SourcePosition at) {
        String t = text.strip();
        if (t.isEmpty()) return new int[0];
        String[] parts = t.split("\\s+");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) out[i] = number(parts[i], what, at);
        return out;
    }

    private static void smt(TopoDraft d, String rest, SourcePosition at) {
        String[] p = rest.split("\\s+");
        String expected = "; expected 'smt none', 'smt W adjacent' or 'smt W stride S'";
        if (p.length == 1 && p[0].equals("none")) d.smtNone(at);
        else if (p.length == 2 && p[1].equals("adjacent")) d.smtAdjacent(number(p[0], "smt width", at), at);
        else if (p.length == 3 && p[1].equals("stride")) d.smtStride(number(p[0], "smt width", at), number(p[2], "smt stride", at), at);
        else throw new InvalidTopologyException(at.where(), "'smt " + rest + "'" + expected);
    }

    private static void pkg(TopoDraft d, String rest, SourcePosition at) {
        String[] p = rest.split("\\s+", 3);
        if (p.length < 3 || !p[1].equals("cpus"))
            throw new InvalidTopologyException(at.where(), "'package " + rest + "'; expected 'package ID cpus LIST' (e.g. 'package 36 cpus 0-63')");
        d.pkg(number(p[0], "package id", at), list(p[2], at), at);
    }

    private static void packages(TopoDraft d, String rest, SourcePosition at) {
        String[] p = rest.split("\\s+");
        if (p.length == 1 && p[0].equals("per-node")) d.packagesPerNode(at);
        else if (p.length == 3 && p[0].equals("every") && p[2].equals("cores")) d.packagesEvery(number(p[1], "core count", at), at);
        else throw new InvalidTopologyException(at.where(), "'packages " + rest + "'; expected 'packages per-node' or 'packages every K cores'");
    }

    private static void cluster(TopoDraft d, String rest, SourcePosition at) {
        String[] p = rest.split("\\s+", 2);
        if (p.length == 2 && p[0].equals("cpus")) d.cluster(list(p[1], at), at);
        else if (p[0].equals("every") && rest.split("\\s+").length == 3 && rest.endsWith("cores"))
            d.clustersEvery(number(rest.split("\\s+")[1], "core count", at), at);
        else throw new InvalidTopologyException(at.where(), "'cluster " + rest + "'; expected 'cluster cpus LIST' or 'cluster every K cores'");
    }

    private static void nodeOf(TopoDraft d, String rest, SourcePosition at) {
        int space = rest.lastIndexOf(' ');
        if (space < 0)
            throw new InvalidTopologyException(at.where(), "'node-of " + rest + "'; expected 'node-of LIST NODE' (e.g. 'node-of 16-87 0')");
        d.nodeOf(list(rest.substring(0, space), at), number(rest.substring(space + 1), "node id", at), at);
    }

    private static void available(TopoDraft d, String line, SourcePosition at) {
        Matcher m = AVAILABLE.matcher(line);
        if (!m.matches())
            throw new InvalidTopologyException(at.where(), "'" + line + "'; expected 'available: N nodes (LIST)'");
        int count = number(m.group(1), "node count", at);
        NodeMask nodes = m.group(2) != null ? nodeList(m.group(2), at) : NodeMask.range(0, count - 1);
        d.available(nodes, count, at);
    }

    private static void numactlNode(TopoDraft d, String line, SourcePosition at) {
        Matcher m;
        if (line.replaceAll("\\s+", " ").equals("node distances:")) return;
        if ((m = NODE_CPUS.matcher(line)).matches()) {
            d.nodeCpus(number(m.group(1), "node id", at), list(m.group(2), at), at);
        } else if ((m = NODE_SIZE.matcher(line)).matches()) {
            Matcher mb = SIZE_MB.matcher(m.group(2));
            if (mb.matches()) d.nodeSize(number(m.group(1), "node id", at), Long.parseLong(mb.group(1)), at);
            else if (!m.group(2).equals("<not available>"))
                throw new InvalidTopologyException(at.where(), "'" + line + "'; expected 'node N size: S MB'");
        } else if (NODE_FREE.matcher(line).matches()) {
            // free memory changes from minute to minute and decides nothing here
        } else if ((m = HEADER.matcher(line)).matches()) {
            d.distanceHeader(numbers(m.group(1), "node id", at), at);
        } else {
            throw new InvalidTopologyException(at.where(), "'" + line + "'; expected a numactl line: 'node N cpus: LIST', 'node N size: S MB',"
                    + " 'node N free: F MB', 'node distances:' or the header 'node 0 1 ...'");
        }
    }

    private static TopoDraft.LscpuRow lscpuRow(String line, List<String> columns, SourcePosition at) {
        List<String> cols = columns != null ? columns : List.of("CPU", "Core", "Socket", "Node");
        String[] f = line.split(",", -1);
        int cpu = -1, core = -1, socket = -1, node = -1, cluster = -1;
        boolean online = true;
        for (int i = 0; i < Math.min(cols.size(), f.length); i++) {
            String v = f[i].strip();
            switch (cols.get(i).strip()) {
                case "CPU" -> cpu = lscpuNumber(v, "CPU", at);
                case "Core" -> core = lscpuNumber(v, "Core", at);
                case "Socket" -> socket = lscpuNumber(v, "Socket", at);
                case "Node" -> node = lscpuNumber(v, "Node", at);
                case "Cluster" -> cluster = lscpuNumber(v, "Cluster", at);
                case "Online" -> online = !v.equalsIgnoreCase("N");
                default -> { }
            }
        }
        if (cpu < 0)
            throw new InvalidTopologyException(at.where(), "lscpu -p row '" + line + "' has no CPU; expected rows such as '0,0,0,0,,0,0,0,0' under '# CPU,Core,Socket,Node,...'");
        return new TopoDraft.LscpuRow(cpu, core, socket, node, online, cluster, at);
    }

    private static int lscpuNumber(String v, String column, SourcePosition at) {
        if (v.equals("-") || v.isEmpty()) return -1;
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new InvalidTopologyException(at.where(), "lscpu -p " + column + " column '" + v + "'; expected a number or '-'");
        }
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
