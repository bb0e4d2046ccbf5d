package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * STUB of the kit branch, to be replaced by the formats branch: reads the small subset of
 * {@code .topo} the kit's tests use ({@code topology}, {@code source}, {@code possible},
 * {@code present}, {@code online}, {@code siblings}, {@code smt W adjacent}, {@code numactl -H}
 * node cpus/size lines and the distance table). Other directives are ignored.
 */
public final class TopoFormat {
    private TopoFormat() {}

    private static final Pattern CPUS = Pattern.compile("node\\s+(\\d+)\\s+cpus:\\s*(.*)");
    private static final Pattern SIZE = Pattern.compile("node\\s+(\\d+)\\s+size:\\s*(\\d+)\\s*MB");
    private static final Pattern ROW = Pattern.compile("(\\d+):\\s+([\\d\\s]+)");

    public static TopoDocument read(Path file) {
        try {
            return read(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read", e);
        }
    }

    public static TopoDocument read(String text, String fileName) {
        TopologyBuilder b = null;
        List<int[]> rows = new ArrayList<>();
        java.util.TreeMap<Integer, Boolean> memless = new java.util.TreeMap<>();
        java.util.TreeMap<Integer, String> cpus = new java.util.TreeMap<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            String s = lines[i].replaceFirst("#.*", "").strip();
            if (s.isEmpty()) continue;
            String[] w = s.split("\\s+", 2);
            String rest = w.length > 1 ? w[1].strip() : "";
            if (b == null) {
                if (!w[0].equals("topology") || rest.isEmpty())
                    throw new IllegalArgumentException(fileName + ":" + (i + 1) + ": found \"" + s + "\"; expected \"topology NAME\" first");
                b = TopologyBuilder.machine(rest);
                continue;
            }
            Matcher m;
            switch (w[0]) {
                case "source" -> b.source(rest);
                case "possible" -> b.possible(rest);
                case "present" -> b.present(rest);
                case "online" -> b.online(rest);
                case "siblings" -> b.siblings(rest.split("\\s+"));
                case "smt" -> {
                    String[] a = rest.split("\\s+");
                    if (a.length == 2 && a[1].equals("adjacent")) b.smtAdjacent(Integer.parseInt(a[0]));
                }
                default -> {
                    if ((m = CPUS.matcher(s)).matches()) cpus.put(Integer.parseInt(m.group(1)), m.group(2).strip().replaceAll("\\s+", ","));
                    else if ((m = SIZE.matcher(s)).matches()) memless.put(Integer.parseInt(m.group(1)), m.group(2).equals("0"));
                    else if ((m = ROW.matcher(s)).matches())
                        rows.add(java.util.Arrays.stream(m.group(2).strip().split("\\s+")).mapToInt(Integer::parseInt).toArray());
                }
            }
        }
        if (b == null) throw new IllegalArgumentException(fileName + ":1: found no \"topology NAME\" line; expected one first");
        for (var e : cpus.entrySet()) {
            CpuSet c = e.getValue().isEmpty() ? CpuSet.EMPTY : CpuSet.parseList(e.getValue());
            if (Boolean.TRUE.equals(memless.get(e.getKey()))) b.memorylessNode(e.getKey(), e.getValue());
            else b.node(e.getKey(), c);
        }
        if (!rows.isEmpty()) b.distances(rows.toArray(new int[0][]));
        try {
            return new TopoDocument(b.build());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(fileName + ": " + e.getMessage(), e);
        }
    }
}
