package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code certify --impl kernel:SOURCE} from the command line, on the stand-in kernel
 * ({@code kernel:model-X.Y}: the booted-machine mode without QEMU): the options, the errors, and
 * what the certificate says. The real kernels are certified by {@code BootedKernelIT}.
 */
class KernelCertifyTest {

    @TempDir Path dir;

    record Run(int exit, String out, String err) {}

    Run certify(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new CertifyCommand(Certifier::standard));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--report";
        all[args.length + 1] = dir.resolve("report").toString();
        return new Run(cl.execute(all), out.toString(), err.toString());
    }

    @Test
    void aKernelIsCertifiedOnTheMachinesItBooted() {
        Run r = certify("--impl", "kernel:model-7.3", "--machines", "2", "--tries", "20", "--rule", "GRP-10");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("numaspread certify: booting 2 machines with Linux 7.3.0-model, 2 at a time"), r.err());
        assertTrue(r.out().contains("PASS GRP-10 Group order and membership are the kernel's (EXACT; kernel 7.3) tries 2"), r.out());
        assertTrue(r.out().contains("note: booted 2 machines with Linux 7.3.0-model; each rule's tries ran on them"), r.out());
    }

    /** A 6.12 kernel judged as 7.3 fails 7.0's cluster-aware grouping, and the replay line boots the same machines. */
    @Test
    void GRP_15_failsAKernelJudgedAsALaterRelease() {
        Run r = certify("--impl", "kernel:model-6.12", "--kernel", "7.3", "--machines", "4", "--tries", "60", "--rule", "GRP-15");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("FAIL GRP-15"), r.out());
        // (a build may set a budget for every property: -Dnumaspread.budget.seconds, which the replay names)
        assertTrue(r.out().contains("--impl kernel:model-6.12 --kernel 7.3 --tries 60 --seed 0x5eed "), r.out());
        assertTrue(r.out().contains(" --rule GRP-15 --machines 4 --report "), r.out());
        assertTrue(r.out().contains("note: FAIL GRP-15: boot its machine with: "), r.out());
    }

    @Test
    void badKernelOptionsAreUsageErrors() {
        Run noKernel = certify("--impl", "model", "--machines", "2");
        assertEquals(2, noKernel.exit());
        assertEquals("numaspread certify: --machines 2: only with --impl kernel:SOURCE; expected no --machines for an implementation"
                + " that answers for any machine\n", noKernel.err());
        Run empty = certify("--impl", "kernel:");
        assertEquals(2, empty.exit());
        assertTrue(empty.err().startsWith("numaspread certify: --impl kernel: names no kernel; expected kernel:debian-7.3"), empty.err());
        Run zero = certify("--impl", "kernel:model-7.3", "--machines", "0");
        assertEquals(2, zero.exit());
        assertEquals("numaspread certify: --machines 0: out of range; expected 1 to 1000\n", zero.err());
        Run exhaustive = certify("--impl", "kernel:model-7.3", "--exhaustive", "2");
        assertEquals(2, exhaustive.exit());
        assertTrue(exhaustive.err().contains("--exhaustive with kernel:"), exhaustive.err());
    }

    /** --topology boots that machine, or says which of its features QEMU cannot build. */
    @Test
    void topologyBootsThatMachineOrSaysWhatQemuCannotBuild() throws Exception {
        Path cpu0 = dir.resolve("cpu0.topo");
        Files.writeString(cpu0, "topology cpu0\nonline 1-3\nnode-of 0 0\navailable: 1 nodes (0)\nnode 0 cpus: 1 2 3\nnode 0 size: 1024 MB\n"
                + "node distances:\nnode   0\n  0:  10\n");
        Run r = certify("--impl", "kernel:model-7.3", "--topology", cpu0.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("--topology cpu0: QEMU cannot build this machine: cpu 0 offline: x86 Linux cannot take CPU 0 offline"),
                r.err());
        Path two = dir.resolve("two.topo");
        Files.writeString(two, "topology two\navailable: 2 nodes (0-1)\nnode 0 cpus: 0 1\nnode 0 size: 1024 MB\nnode 1 cpus: 2 3\n"
                + "node 1 size: 1024 MB\nnode distances:\nnode   0   1\n  0:  10  20\n  1:  20  10\n");
        Run ok = certify("--impl", "kernel:model-7.3", "--topology", two.toString(), "--tries", "10", "--rule", "LS-3");
        assertEquals(0, ok.exit(), ok.out() + ok.err());
        assertTrue(ok.err().contains("booting 1 machine with Linux 7.3.0-model"), ok.err());
    }

    Run plan(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    /** plan --impl kernel: boots the machine and prints the kernel's answer beside the model's. */
    @Test
    void planAsksABootedKernel() throws Exception {
        Path two = dir.resolve("two.topo");
        Files.writeString(two, "topology two\nsmt 2 adjacent\navailable: 2 nodes (0-1)\nnode 0 cpus: 0 1 2 3\nnode 0 size: 1024 MB\n"
                + "node 1 cpus: 4 5 6 7\nnode 1 size: 1024 MB\nnode distances:\nnode   0   1\n  0:  10  20\n  1:  20  10\n");
        Run same = plan("--impl", "kernel:model-7.3", "--routine", "group-cpus", "--kernel", "7.3", "--topology", two.toString(),
                "--count", "3");
        assertEquals(0, same.exit(), same.out() + same.err());
        assertTrue(same.err().contains("numaspread plan: booting 1 machine with Linux 7.3.0-model"), same.err());
        Run older = plan("--impl", "kernel:model-6.12", "--routine", "group-cpus", "--kernel", "7.3", "--topology", two.toString(),
                "--count", "3");
        assertEquals(1, older.exit(), older.out() + older.err());
        Path sparse = dir.resolve("sparse.topo");
        Files.writeString(sparse, "topology sparse\navailable: 2 nodes (0,2)\nnode 0 cpus: 0 1\nnode 0 size: 1024 MB\n"
                + "node 2 cpus: 2 3\nnode 2 size: 1024 MB\nnode distances:\nnode   0   2\n  0:  10  20\n  2:  20  10\n");
        Run renumbered = plan("--impl", "kernel:model-7.3", "--routine", "local-spread", "--kernel", "7.3", "--topology", sparse.toString(),
                "--node", "2", "--count", "2");
        assertEquals(2, renumbered.exit(), renumbered.out() + renumbered.err());
        assertTrue(renumbered.err().contains("--topology sparse: QEMU cannot build this machine: node ids 0,2 have gaps"), renumbered.err());
    }

    /** kernel table certifies each kernel on the same machines and writes the README's table between its markers. */
    @Test
    void kernelTableWritesTheReadmesTable() throws Exception {
        Path readme = dir.resolve("README.md");
        Files.writeString(readme, "# r\n\n" + dev.numaspread.kernel.certify.KernelTable.START + "\nold\n"
                + dev.numaspread.kernel.certify.KernelTable.END + "\n");
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = Main.run(new String[]{"kernel", "table", "model-6.1", "model-7.3", "--machines", "2", "--tries", "10", "--write",
                readme.toString(), "--report", dir.resolve("kernels").toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, exit, out + "\n" + err);
        String written = Files.readString(readme);
        assertTrue(written.contains("| routine | `model-6.1` (6.1.0-model) | `model-7.3` (7.3.0-model) |"), written);
        assertTrue(written.contains("| `hop-masks` | not claimed: "), written);
        assertTrue(!written.contains("old"), written);
        assertTrue(Files.isRegularFile(dir.resolve("kernels").resolve("model-7.3").resolve("report.json")));
        assertTrue(err.toString().contains("numaspread kernel table: wrote the table into " + readme), err.toString());
    }
}
