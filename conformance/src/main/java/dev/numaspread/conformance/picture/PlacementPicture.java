package dev.numaspread.conformance.picture;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.ArchSchedNodeDistance;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A placement drawn as SVG: the machine's nodes as boxes, nearest to the device's node first; in
 * each, its CPUs as cells, SMT siblings side by side and each cluster outlined; offline CPUs
 * hatched and CPUs that are not present dashed; each cell labelled with the queue, IRQ or group
 * numbers placed on it. Several placements (releases, or expected and actual) are drawn next to
 * each other, and a CPU whose numbers differ between them is outlined in red. A legend
 * ({@code id="legend"}) explains every mark. Self-contained: no script, no external reference,
 * every text escaped.
 */
public final class PlacementPicture {

    private PlacementPicture() {}

    static final int CELL_W = 40, CELL_H = 34, SIB_GAP = 2, CORE_GAP = 6, UNIT_PAD = 4, PAD = 10, NODE_HEADER = 18,
            ROW_MAX = 640, PANEL_GAP = 28, TITLE = 22, LEGEND_ROW = 22;

    /**
     * The picture of {@code panels} on {@code m}, nodes ordered by distance from {@code node}
     * (by id for NUMA_NO_NODE).
     *
     * @param idPrefix makes the picture's ids unique when several share one page ({@code np})
     */
    public static String svg(Topology m, int node, List<Placement> panels, String caption, String idPrefix) {
        return svg(m, node, panels, caption, idPrefix, List.of());
    }

    /**
     * {@link #svg(Topology, int, List, String, String)} with the distance each panel's node headers
     * show: {@code distances.get(p)} for panel {@code p} (the scheduler's distance of its release,
     * LVL-6), {@code node_distance()} where the list has none. A header whose distance differs from
     * {@code node_distance()} says it is the scheduler's, and the legend says what that is.
     */
    public static String svg(Topology m, int node, List<Placement> panels, String caption, String idPrefix,
                             List<ArchSchedNodeDistance> distances) {
        if (panels.isEmpty()) panels = List.of(new Placement("", "queue", List.of()));
        List<ArchSchedNodeDistance> shown = new ArrayList<>();
        for (int p = 0; p < panels.size(); p++) shown.add(p < distances.size() ? distances.get(p) : ArchSchedNodeDistance.raw(m));
        boolean scheduler = node != Numa.NUMA_NO_NODE && shown.stream().anyMatch(ArchSchedNodeDistance::rewritesDistances);
        List<Integer> order = nodeOrder(m, node);
        List<NodeBox> boxes = new ArrayList<>();
        for (int n : order) boxes.add(layout(m, n));
        // A header that names both distances needs the wider box.
        int panelW = Math.max(scheduler ? 340 : 260, boxes.stream().mapToInt(b -> b.width).max().orElse(0));
        int panelH = TITLE + boxes.stream().mapToInt(b -> b.height + PAD).sum();
        int width = Math.max(760, PAD * 2 + panels.size() * panelW + (panels.size() - 1) * PANEL_GAP);
        int legendTop = PAD + TITLE + panelH + PAD;
        int height = legendTop + (scheduler ? 6 : 5) * LEGEND_ROW + PAD;
        String hatch = idPrefix + "-hatch";
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"placement\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        sb.append("<title>").append(esc(caption)).append("</title>\n");
        sb.append("<defs><pattern id=\"").append(hatch).append("\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888\" stroke-width=\"2\"/></pattern></defs>\n");
        sb.append("<rect x=\"0\" y=\"0\" width=\"").append(width).append("\" height=\"").append(height).append("\" fill=\"#ffffff\"/>\n");
        sb.append(text(PAD, PAD + 13, caption, "font-size=\"14\" font-weight=\"bold\"")).append('\n');
        for (int p = 0; p < panels.size(); p++) {
            Placement pl = panels.get(p);
            int x0 = PAD + p * (panelW + PANEL_GAP), y = PAD + TITLE;
            sb.append("<g class=\"panel\" data-title=\"").append(esc(pl.title())).append("\">\n");
            sb.append(text(x0, y + 13, pl.title(), "font-size=\"13\" font-weight=\"bold\"")).append('\n');
            y += TITLE;
            for (NodeBox b : boxes) {
                drawNode(sb, m, node, b, x0, y, panelW, pl, panels, hatch, shown.get(p));
                y += b.height + PAD;
            }
            sb.append("</g>\n");
        }
        legend(sb, PAD, legendTop, panels, hatch, scheduler);
        return sb.append("</svg>\n").toString();
    }

    /**
     * The distance from the device's node as a header shows it: {@code 24 (sched; raw 21)} where the
     * scheduler's distance is not {@code node_distance()}; the legend says what both words mean.
     */
    static String distanceText(Topology m, int from, int to, ArchSchedNodeDistance distance) {
        int sched = distance.distance(from, to), raw = m.distance(from, to);
        return sched == raw ? String.valueOf(raw) : sched + " (sched; raw " + raw + ")";
    }

    /** The nodes in the order drawn: by distance from {@code node}, ties by id; by id for NUMA_NO_NODE. */
    static List<Integer> nodeOrder(Topology m, int node) {
        List<Integer> ids = new ArrayList<>();
        for (int id : m.nodeIds()) ids.add(id);
        if (node != Numa.NUMA_NO_NODE && m.hasNode(node))
            ids.sort(Comparator.comparingInt((Integer n) -> m.distance(node, n)).thenComparingInt(n -> n));
        return ids;
    }

    /** One node's box: units (clusters, or cores without clusters) in rows. */
    private record NodeBox(int node, List<List<Unit>> rows, int width, int height) {}

    /** A cluster (outlined) or a lone core: its cores, each the SMT siblings side by side. */
    private record Unit(List<CpuSet> cores, boolean cluster, int width) {}

    private static NodeBox layout(Topology m, int n) {
        CpuSet cpus = m.cpusOf(n);
        List<Unit> units = new ArrayList<>();
        CpuSet placed = CpuSet.EMPTY;
        for (int c : cpus.toArray()) {
            if (placed.contains(c)) continue;
            CpuSet cluster = m.clusters().stream().filter(g -> g.contains(c)).findFirst().orElse(CpuSet.EMPTY).and(cpus);
            CpuSet core0 = m.siblingsOf(c).and(cpus);
            boolean isCluster = cluster.size() > core0.size();
            CpuSet unitCpus = isCluster ? cluster : core0;
            List<CpuSet> cores = new ArrayList<>();
            CpuSet coresPlaced = CpuSet.EMPTY;
            for (int u : unitCpus.toArray()) {
                if (coresPlaced.contains(u)) continue;
                CpuSet core = m.siblingsOf(u).and(unitCpus);
                cores.add(core);
                coresPlaced = coresPlaced.or(core);
            }
            int w = 0;
            for (CpuSet core : cores) w += core.size() * CELL_W + (core.size() - 1) * SIB_GAP;
            w += (cores.size() - 1) * CORE_GAP + (isCluster ? 2 * UNIT_PAD : 0);
            units.add(new Unit(cores, isCluster, w));
            placed = placed.or(unitCpus);
        }
        List<List<Unit>> rows = new ArrayList<>();
        int widest = 0, rowW = 0;
        for (Unit u : units) {
            if (rows.isEmpty() || rowW > 0 && rowW + CORE_GAP + u.width() > ROW_MAX) {
                rows.add(new ArrayList<>());
                rowW = 0;
            }
            rowW += (rowW > 0 ? CORE_GAP : 0) + u.width();
            rows.get(rows.size() - 1).add(u);
            widest = Math.max(widest, rowW);
        }
        int rowH = CELL_H + 2 * UNIT_PAD + 4;
        int height = NODE_HEADER + Math.max(1, rows.size()) * rowH + 6;
        return new NodeBox(n, rows, Math.max(widest + 2 * PAD, 240), height);
    }

    private static void drawNode(StringBuilder sb, Topology m, int devNode, NodeBox b, int x0, int y0, int panelW, Placement pl,
                                 List<Placement> all, String hatch, ArchSchedNodeDistance distance) {
        Node n = m.node(b.node()).orElseThrow();
        sb.append(String.format(Locale.ROOT, "<g class=\"node\" data-node=\"%d\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\" fill=\"#fafafa\" stroke=\"#555\"/>%n",
                b.node(), x0, y0, panelW, b.height));
        String head = "node " + b.node() + (devNode != Numa.NUMA_NO_NODE && m.hasNode(devNode) ? " · distance " + distanceText(m, devNode, b.node(), distance) : "")
                + " · CPUs " + n.cpus().toText() + (n.hasMemory() ? "" : " · no memory");
        sb.append(text(x0 + PAD, y0 + 13, head, "font-weight=\"bold\"")).append('\n');
        int y = y0 + NODE_HEADER + UNIT_PAD;
        if (b.rows().isEmpty()) sb.append(text(x0 + PAD, y + 18, "no CPUs", "fill=\"#777\"")).append('\n');
        for (List<Unit> row : b.rows()) {
            int x = x0 + PAD;
            for (Unit u : row) {
                if (u.cluster())
                    sb.append(String.format(Locale.ROOT, "<rect class=\"cluster\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\" fill=\"none\" stroke=\"#2a7\" stroke-width=\"1.5\"/>%n",
                            x, y - UNIT_PAD + 1, u.width(), CELL_H + 2 * UNIT_PAD - 2));
                int cx = x + (u.cluster() ? UNIT_PAD : 0);
                for (CpuSet core : u.cores()) {
                    for (int c : core.toArray()) {
                        cell(sb, m, c, cx, y, pl, all, hatch);
                        cx += CELL_W + SIB_GAP;
                    }
                    cx += CORE_GAP - SIB_GAP;
                }
                x += u.width() + CORE_GAP;
            }
            y += CELL_H + 2 * UNIT_PAD + 4;
        }
        sb.append("</g>\n");
    }

    private static void cell(StringBuilder sb, Topology m, int c, int x, int y, Placement pl, List<Placement> all, String hatch) {
        CpuSet slots = pl.slotsOn(c);
        boolean differs = all.size() > 1 && all.stream().anyMatch(o -> !o.slotsOn(c).equals(slots));
        boolean present = m.present().contains(c), online = m.online().contains(c);
        String fill = !present ? "#eeeeee" : slots.isEmpty() ? "#ffffff" : slots.size() == 1 ? "#cfe3ff" : "#8fb8f5";
        String state = !present ? "not present" : online ? "online" : "offline";
        String label = slots.isEmpty() ? "" : slots.toList();
        sb.append(String.format(Locale.ROOT, "<g class=\"cpu%s\" data-cpu=\"%d\" data-slots=\"%s\"><title>cpu %d (node %d, %s): %s</title>%n",
                differs ? " differs" : "", c, esc(label), c, m.nodeOf(c), state,
                esc(slots.isEmpty() ? "no " + pl.word() : pl.word() + (slots.size() == 1 ? " " : "s ") + label)));
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s/>%n",
                x, y, CELL_W, CELL_H, fill, differs ? "#d00" : "#333", differs ? "2.5" : "1", present ? "" : " stroke-dasharray=\"3 2\""));
        if (present && !online)
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#%s)\" pointer-events=\"none\"/>%n", x, y, CELL_W, CELL_H, hatch));
        sb.append(text(x + 3, y + 10, String.valueOf(c), "font-size=\"9\" fill=\"#666\"")).append('\n');
        if (!label.isEmpty()) {
            int size = label.length() <= 4 ? 12 : label.length() <= 7 ? 9 : 7;
            String shown = label.length() <= 10 ? label : label.substring(0, 9) + "…";
            sb.append(text(x + CELL_W / 2, y + CELL_H - 8, shown, "font-size=\"" + size + "\" font-weight=\"bold\" text-anchor=\"middle\"")).append('\n');
        }
        sb.append("</g>\n");
    }

    private static void legend(StringBuilder sb, int x, int y, List<Placement> panels, String hatch, boolean scheduler) {
        String word = panels.get(0).word();
        sb.append("<g id=\"legend\" class=\"legend\">\n");
        sb.append(text(x, y + 12, "Legend", "font-weight=\"bold\"")).append('\n');
        int row = y + LEGEND_ROW;
        legendCell(sb, x, row, "#cfe3ff", "", false, "a CPU and the " + word + " numbers placed on it (small: the CPU id)", "1");
        legendCell(sb, x + 420, row, "#8fb8f5", "", false, "a CPU holding several " + word + "s", "0,4");
        row += LEGEND_ROW;
        legendCell(sb, x, row, "#ffffff", "url(#" + hatch + ")", false, "offline CPU (hatched)", "");
        legendCell(sb, x + 420, row, "#eeeeee", "", true, "CPU not present (dashed)", "");
        row += LEGEND_ROW;
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"16\" rx=\"4\" fill=\"none\" stroke=\"#2a7\" stroke-width=\"1.5\"/>%n", x, row));
        sb.append(text(x + 38, row + 12, "cluster (green outline); SMT siblings sit side by side", "")).append('\n');
        if (panels.size() > 1) {
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"16\" rx=\"3\" fill=\"#fff\" stroke=\"#d00\" stroke-width=\"2.5\"/>%n", x + 420, row));
            sb.append(text(x + 458, row + 12, "differs between the pictures", "")).append('\n');
        }
        row += LEGEND_ROW;
        sb.append(text(x, row + 12, "Nodes are ordered by distance from the device's node, nearest first.", "fill=\"#444\"")).append('\n');
        if (scheduler) {
            row += LEGEND_ROW;
            sb.append(text(x, row + 12, "sched: arch_sched_node_distance(), the distance this release's NUMA levels use here (LVL-8);"
                    + " raw: node_distance().", "fill=\"#444\"")).append('\n');
        }
        sb.append("</g>\n");
    }

    private static void legendCell(StringBuilder sb, int x, int y, String fill, String overlay, boolean dashed, String what, String label) {
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"16\" rx=\"3\" fill=\"%s\" stroke=\"#333\"%s/>%n",
                x, y, fill, dashed ? " stroke-dasharray=\"3 2\"" : ""));
        if (!overlay.isEmpty()) sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"16\" fill=\"%s\"/>%n", x, y, overlay));
        if (!label.isEmpty()) sb.append(text(x + 15, y + 12, label, "font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\"")).append('\n');
        sb.append(text(x + 38, y + 12, what, "")).append('\n');
    }

    private static String text(int x, int y, String s, String attrs) {
        return "<text x=\"" + x + "\" y=\"" + y + "\"" + (attrs.isEmpty() ? "" : " " + attrs) + ">" + esc(s) + "</text>";
    }

    /** {@code s} made printable on one line (FMT-19), with XML's special characters escaped. */
    static String esc(String s) {
        return Printable.of(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
    }
}
