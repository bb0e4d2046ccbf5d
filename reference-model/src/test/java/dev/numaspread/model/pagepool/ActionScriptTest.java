package dev.numaspread.model.pagepool;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ActionScriptTest {

    @Test
    void readsTheCreateLineAndOneActionPerLine() {
        ActionScript s = ActionScript.read("""
                # seed 001
                create nid 0 cpu 2 cache 4 refill 2 pool_size 8 untracked

                poll 4      # the IRQ moved
                alloc
                alloc reserve
                recycle 1 shared
                free 0
                update-nid -1
                """, "s.pp");
        assertEquals(new PagePool.Params(0, 2, 4, 2, 8, false, false), s.params());
        assertEquals(List.of(new Action.Poll(4), new Action.Alloc(false), new Action.Alloc(true), new Action.Recycle(1, true),
                new Action.Free(0, false), new Action.UpdateNid(-1)), s.actions());
        assertEquals(List.of(4, 5, 6, 7, 8, 9), s.lines());
        assertEquals("create nid 0 cpu 2 cache 4 refill 2 pool_size 8 untracked\npoll 4\nalloc\nalloc reserve\nrecycle 1 shared\nfree 0\nupdate-nid -1\n", s.text());
    }

    @Test
    void kernelSizesByDefaultAndRefillCappedByASmallCache() {
        assertEquals(PagePool.Params.of(1, 0), ActionScript.read("create nid 1 cpu 0", "s").params());
        assertEquals(new PagePool.Params(1, 0, 8, 8, 1024, true, true),
                ActionScript.read("create nid 1 cpu 0 cache 8 have-memoryless-nodes", "s").params());
    }

    @Test
    void errorsNameTheLine() {
        assertEquals("s.pp:2: found 'recycle x'; expected recycle PAGE [shared]",
                assertThrows(InvalidScriptException.class, () -> ActionScript.read("create nid 0 cpu 0\nrecycle x", "s.pp")).getMessage());
        assertEquals("s.pp:1: found 'alloc' before the create line; expected 'create nid NODE cpu CPU' first",
                assertThrows(InvalidScriptException.class, () -> ActionScript.read("alloc", "s.pp")).getMessage());
        assertEquals("s.pp:1: found 'create cpu 0'; expected create nid NODE cpu CPU [cache N] [refill N] [pool_size N] [untracked] [have-memoryless-nodes]",
                assertThrows(InvalidScriptException.class, () -> ActionScript.read("create cpu 0", "s.pp")).getMessage());
        assertEquals("s.pp:1: page pool: refill 5; expected 1..cache size (4)",
                assertThrows(InvalidScriptException.class, () -> ActionScript.read("create nid 0 cpu 0 cache 4 refill 5", "s.pp")).getMessage());
        assertEquals("s.pp:3: found 'jump 3'; expected an action: poll, alloc, recycle, free or update-nid",
                assertThrows(InvalidScriptException.class, () -> ActionScript.read("create nid 0 cpu 0\nalloc\njump 3", "s.pp")).getMessage());
        assertEquals("s.pp:2: found a second create line; expected one, the first line of the script",
                assertThrows(InvalidScriptException.class, () -> ActionScript.read("create nid 0 cpu 0\ncreate nid 0 cpu 0", "s.pp")).getMessage());
    }
}
