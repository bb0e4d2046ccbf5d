package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's table of the real kernel, release by release, made from kernels' certificates. */
class KernelTableTest {

    @Test
    void aCellPerRoutineAndKernel() {
        Certificate k61 = KernelRunTest.certify(new ModelKernel(KernelRelease.of(6, 1)), Optional.empty(), 4, 10, Optional.empty());
        Certificate k73 = KernelRunTest.certify(new ModelKernel(KernelRelease.of(7, 3)), Optional.empty(), 4, 10, Optional.empty());
        String table = KernelTable.markdown(List.of(new KernelTable.Column("6.1.0-model", k61), new KernelTable.Column("7.3.0-model", k73)));
        List<String> lines = table.lines().toList();
        assertEquals("| routine | 6.1.0-model | 7.3.0-model |", lines.get(0));
        assertEquals("|---|---|---|", lines.get(1));
        String hop = lines.stream().filter(l -> l.startsWith("| `hop-masks` |")).findFirst().orElseThrow();
        assertTrue(hop.matches("\\| `hop-masks` \\| not claimed: for_each_numa_hop_mask\\(mask, node\\) is not in Linux 6.1 \\| PASS 4 rules \\([0-9]+ machines\\) \\|"), hop);
        String grp = lines.stream().filter(l -> l.startsWith("| `group-cpus` |")).findFirst().orElseThrow();
        assertTrue(grp.matches("\\| `group-cpus` \\| PASS [0-9]+ rules \\([0-9]+ machines\\) \\| PASS [0-9]+ rules \\([0-9]+ machines\\) \\|"), grp);
        String mana = lines.stream().filter(l -> l.startsWith("| `mana-setup-irqs` |")).findFirst().orElseThrow();
        assertEquals("| `mana-setup-irqs` | not claimed: needs a Microsoft Azure NIC (MANA): QEMU emulates none"
                + " | not claimed: needs a Microsoft Azure NIC (MANA): QEMU emulates none |", mana);
        int rows = 2 + dev.numaspread.conformance.spi.Routine.values().length;
        // Under the table, why a cell is not a plain PASS: on 6.1, MQ-4, whose narrowing none of the 4 machines meets.
        assertEquals("", lines.get(rows));
        assertEquals("Why a cell is not a plain PASS (each certificate says more):", lines.get(rows + 1));
        assertEquals("", lines.get(rows + 2));
        List<String> why = lines.subList(rows + 3, lines.size());
        assertEquals(List.of("- 6.1.0-model, MQ-4 NOT-VERIFIED"), why.stream().map(w -> w.substring(0, w.indexOf(':'))).toList());
        assertTrue(why.get(0).contains("no machine of the pool is within its narrowing"), why.get(0));
        String ena = lines.stream().filter(l -> l.startsWith("| `ena-irqs` |")).findFirst().orElseThrow();
        assertTrue(ena.contains("not claimed: needs an AWS ENA NIC: QEMU emulates none"), ena);
    }

    @Test
    void theTableGoesBetweenTheMarkers() {
        String readme = "# x\n\n" + KernelTable.START + "\nold\n" + KernelTable.END + "\nafter\n";
        assertEquals("# x\n\n" + KernelTable.START + "\n| new |\n" + KernelTable.END + "\nafter\n", KernelTable.replaceIn(readme, "| new |\n"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelTable.replaceIn("# x\n", "t"));
        assertTrue(e.getMessage().startsWith("README.md: found no lines"), e.getMessage());
    }
}
