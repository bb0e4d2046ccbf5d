package dev.numaspread.model.pagepool;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.InputFile;
import dev.numaspread.model.input.InputText;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.Numa;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A page pool's life written down: one {@code create} line, then one {@link Action} per line
 * (spec/page-pool.md, "Action scripts"). Blank lines and {@code #} comments are skipped.
 *
 * <pre>
 *   # seed 001: the queue's IRQ moves from node 0 to node 1
 *   create nid 0 cpu 0 cache 4 refill 2 pool_size 4
 *   alloc
 *   recycle 1
 *   poll 4
 *   alloc
 * </pre>
 *
 * The create line: {@code create nid NODE cpu CPU}, then optionally {@code cache N},
 * {@code refill N}, {@code pool_size N} (the kernel's 128, 64 and 1024 when absent), {@code untracked}
 * (the driver does not call {@code page_pool_nid_changed} in its poll) and
 * {@code have-memoryless-nodes} (the architecture has {@code CONFIG_HAVE_MEMORYLESS_NODES}).
 *
 * @param params  the create line
 * @param actions the actions, in order
 * @param lines   the 1-based line of each action, for messages
 */
public record ActionScript(PagePool.Params params, List<Action> actions, List<Integer> lines) {
    public ActionScript {
        actions = List.copyOf(actions);
        lines = List.copyOf(lines);
        if (actions.size() != lines.size())
            throw new IllegalArgumentException("action script: " + actions.size() + " actions but " + lines.size() + " lines");
    }

    /** The most actions a script holds: {@value} (each may hold a page, so the pool's pages stay bounded). */
    public static final int MAX_ACTIONS = 1 << 16;

    /**
     * Reads the script in {@code file}: a regular file of at most {@link InputFile#MAX_TEXT_BYTES}
     * bytes of UTF-8 text (spec/formats.md FMT-17, FMT-18), so a FIFO or {@code /dev/zero} is
     * refused unread.
     *
     * @throws InvalidInputException "{@code file: found ...; expected ...}", or
     *         {@link InvalidScriptException} "{@code file:line: found ...; expected ...}"
     */
    public static ActionScript read(Path file) {
        String name = file.toString();
        return read(InputText.decode(InputFile.read(file, InputFile.MAX_TEXT_BYTES, "a page-pool script"), name), name);
    }

    /**
     * Reads a script; {@code file} names it in messages.
     *
     * @throws InvalidScriptException "{@code file:line: found ...; expected ...}"
     */
    public static ActionScript read(String text, String file) {
        PagePool.Params params = null;
        List<Action> actions = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        List<String> all;
        try {
            all = InputText.lines(text, file);
        } catch (InvalidInputException e) {
            throw InvalidScriptException.of(e);
        }
        for (InputText.ContentLine l : InputText.contentLines(all)) {
            String line = l.text();
            String where = file + ":" + l.number();
            if (line.startsWith("create")) {
                if (params != null) throw new InvalidScriptException(where, "found a second create line; expected one, the first line of the script");
                params = createLine(line, where);
                continue;
            }
            if (params == null)
                throw new InvalidScriptException(where, "found " + Printable.quote(line) + " before the create line; expected 'create nid NODE cpu CPU' first");
            if (actions.size() == MAX_ACTIONS)
                throw new InvalidScriptException(where, "found more than " + MAX_ACTIONS + " actions; expected at most " + MAX_ACTIONS
                        + " (spec/formats.md FMT-16)");
            try {
                actions.add(Action.parse(line));
            } catch (IllegalArgumentException e) {
                throw new InvalidScriptException(where, e.getMessage());
            }
            lines.add(l.number());
        }
        if (params == null) throw new InvalidScriptException(file + ":1", "found no create line; expected 'create nid NODE cpu CPU'");
        return new ActionScript(params, actions, lines);
    }

    /** The script as text: the create line, then one action per line. */
    public String text() {
        StringBuilder b = new StringBuilder(params.text()).append('\n');
        for (Action a : actions) b.append(a.text()).append('\n');
        return b.toString();
    }

    private static PagePool.Params createLine(String line, String where) {
        String form = "create nid NODE cpu CPU [cache N] [refill N] [pool_size N] [untracked] [have-memoryless-nodes]";
        String[] w = line.split("[ \\t]+");
        if (!w[0].equals("create")) throw new InvalidScriptException(where, "found " + Printable.quote(line) + "; expected " + form);
        Integer nid = null, cpu = null;
        int cache = PagePool.PP_ALLOC_CACHE_SIZE, refill = PagePool.PP_ALLOC_CACHE_REFILL, poolSize = PagePool.DEFAULT_POOL_SIZE;
        boolean tracks = true, memoryless = false;
        boolean refillGiven = false;
        for (int k = 1; k < w.length; k++) {
            switch (w[k]) {
                case "untracked" -> tracks = false;
                case "have-memoryless-nodes" -> memoryless = true;
                case "nid", "cpu", "cache", "refill", "pool_size" -> {
                    if (k + 1 >= w.length) throw new InvalidScriptException(where, "found '" + w[k] + "' without a number; expected " + form);
                    String key = w[k], word = w[++k];
                    long[] range = switch (key) {
                        case "nid" -> new long[] {Numa.NUMA_NO_NODE, Numa.MAX_NUMNODES - 1};
                        case "cpu" -> new long[] {0, CpuSet.NR_CPUS - 1};
                        case "cache", "refill" -> new long[] {1, PagePool.PP_ALLOC_CACHE_SIZE};
                        default -> new long[] {1, PagePool.MAX_POOL_SIZE};
                    };
                    long n = word.equals("-1") && range[0] < 0 ? -1 : InputText.decimalValue(word);
                    if ((n < 0 && !word.equals("-1")) || n < range[0] || n > range[1])
                        throw new InvalidScriptException(where, "found " + Printable.quote(key + " " + word) + "; expected a number after " + key
                                + ", " + range[0] + " to " + range[1]);
                    int v = (int) n;
                    switch (w[k - 1]) {
                        case "nid" -> nid = v;
                        case "cpu" -> cpu = v;
                        case "cache" -> cache = v;
                        case "refill" -> { refill = v; refillGiven = true; }
                        default -> poolSize = v;
                    }
                }
                default -> throw new InvalidScriptException(where, "found " + Printable.quote(w[k]) + " in the create line; expected " + form);
            }
        }
        if (nid == null || cpu == null) throw new InvalidScriptException(where, "found " + Printable.quote(line) + "; expected " + form);
        if (!refillGiven) refill = Math.min(refill, cache);
        try {
            return new PagePool.Params(nid, cpu, cache, refill, poolSize, tracks, memoryless);
        } catch (IllegalArgumentException e) {
            throw new InvalidScriptException(where, e.getMessage());
        }
    }
}
