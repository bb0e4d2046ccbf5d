package dev.numaspread.kernel.guest;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConsoleTest {

    @Test
    void anOopsIsAFailureAndAWarningIsNot() {
        Console c = new Console(3);
        c.add("[    9.1] WARNING: CPU: 0 PID: 1 at kernel/irq/affinity.c:40 irq_create_affinity_masks+0x1f/0x2c0\r");
        assertEquals(Optional.empty(), c.failure());
        c.add("[   10.2] BUG: kernel NULL pointer dereference, address: 0000000000000000");
        c.add("[   10.2] Oops: 0002 [#1] PREEMPT SMP NOPTI");
        assertEquals(Optional.of("[   10.2] BUG: kernel NULL pointer dereference, address: 0000000000000000"), c.failure());
    }

    @Test
    void aPanicIsAFailure() {
        Console c = new Console(10);
        c.add("[    1.0] Kernel panic - not syncing: VFS: Unable to mount root fs");
        assertEquals(Optional.of("[    1.0] Kernel panic - not syncing: VFS: Unable to mount root fs"), c.failure());
    }

    @Test
    void keepsTheLastLines() {
        Console c = new Console(2);
        for (String s : List.of("a", "", "b", "c")) c.add(s);
        assertEquals(List.of("c"), c.tail(1));
        assertEquals("b | c", c.tailText(5));
        assertEquals("(the console printed nothing)", new Console(2).tailText(3));
    }
}
