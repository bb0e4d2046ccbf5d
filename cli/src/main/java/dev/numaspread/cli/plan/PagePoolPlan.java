package dev.numaspread.cli.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.pagepool.ActionScript;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PoolState;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code numaspread plan --routine page-pool --script FILE}: replays an action script
 * (spec/page-pool.md, "Action scripts") on a machine and prints the pool after each action. The
 * one plan of a stateful routine: its input is a sequence of actions, its output a sequence of
 * steps, so it does not share the other routines' per-queue formats.
 */
public final class PagePoolPlan {
    private PagePoolPlan() {}

    /** The formats of a page pool plan. */
    public static final List<PlanFormat> FORMATS = List.of(PlanFormat.LIST, PlanFormat.TABLE, PlanFormat.JSON);

    /** One replayed action: its script line, the action, what the pool did and the pool after it. */
    public record Step(int line, String action, PagePoolSession.Answer answer) {}

    /**
     * Replays {@code script} on a pool of {@code impl}.
     *
     * @throws IllegalArgumentException "{@code file:line: action 'recycle 7': ...}" for an action the
     *                                  pool cannot take there
     */
    public static List<Step> replay(Implementation impl, KernelRelease kernel, Topology machine, ActionScript script, String file) {
        PagePoolSession pool = impl.pagePool(kernel, machine, script.params());
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < script.actions().size(); i++) {
            var action = script.actions().get(i);
            try {
                steps.add(new Step(script.lines().get(i), action.text(), pool.apply(action)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ":" + script.lines().get(i) + ": action '" + action.text() + "': "
                        + e.getMessage());
            }
        }
        return steps;
    }

    /**
     * The steps in {@code format}. {@code list}: per action a line {@code action: what the pool did}
     * and an indented line with the pool after it; {@code table}: one row per action; {@code json}.
     */
    public static String render(ActionScript script, List<Step> steps, PlanFormat format, KernelRelease kernel, Topology machine) {
        StringBuilder sb = new StringBuilder();
        switch (format) {
            case LIST -> {
                sb.append(script.params().text()).append('\n');
                for (Step s : steps)
                    sb.append(s.action()).append(": ").append(s.answer().effect().text()).append('\n')
                            .append("  ").append(s.answer().state().text()).append('\n');
            }
            case TABLE -> {
                sb.append(String.format("%-4s %-18s %-5s %-4s %-14s %-14s %-14s %-14s %s%n",
                        "step", "action", "nid", "cpu", "alloc cache", "ptr_ring", "in use", "page allocator", "the pool"));
                int n = 0;
                for (Step s : steps) {
                    PoolState st = s.answer().state();
                    sb.append(String.format("%-4d %-18s %-5d %-4d %-14s %-14s %-14s %-14s %s%n", ++n, s.action(), st.nid(), st.cpu(),
                            PoolState.pagesText(st.cache()), PoolState.pagesText(st.ptrRing()), PoolState.pagesText(st.inUse()),
                            PoolState.pagesText(st.released()), s.answer().effect().text()));
                }
            }
            case JSON -> {
                ObjectNode o = JsonText.asked("page-pool", kernel, machine);
                o.put("create", script.params().text());
                ArrayNode a = o.putArray("steps");
                for (Step s : steps) {
                    ObjectNode j = a.addObject();
                    j.put("line", s.line());
                    j.put("action", s.action());
                    j.put("did", s.answer().effect().text());
                    PoolState st = s.answer().state();
                    ObjectNode state = j.putObject("state");
                    state.put("nid", st.nid());
                    state.put("cpu", st.cpu());
                    pages(state.putArray("cache"), st.cache());
                    pages(state.putArray("ptrRing"), st.ptrRing());
                    pages(state.putArray("inUse"), st.inUse());
                    pages(state.putArray("released"), st.released());
                }
                sb.append(JsonText.of(o));
            }
            default -> throw new IllegalArgumentException("--format '" + format.word() + "': page-pool prints " + PlanFormat.words(FORMATS));
        }
        return sb.toString();
    }

    private static void pages(ArrayNode out, List<Page> pages) {
        for (Page p : pages) {
            ObjectNode j = out.addObject().put("id", p.id()).put("node", p.node());
            if (p.pfmemalloc()) j.put("pfmemalloc", true);
        }
    }
}
