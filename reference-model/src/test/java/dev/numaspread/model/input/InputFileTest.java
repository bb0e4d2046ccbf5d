package dev.numaspread.model.input;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Only regular files of a bounded size are read (spec/formats.md FMT-17). */
class InputFileTest {

    static String error(Path p, int max) {
        return assertThrows(InvalidInputException.class, () -> InputFile.read(p, max, "a .topo file")).getMessage();
    }

    @Test
    void FMT_17_refusesDevicesWithoutOpeningThem() {
        assertEquals("/dev/zero: not a regular file (a FIFO, a device or a socket); expected a .topo file", error(Path.of("/dev/zero"), 100));
    }

    /** A FIFO nobody writes to would block a read forever: it is refused from its attributes. */
    @Test
    void FMT_17_refusesAFifoWithoutBlocking(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("fifo.topo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, p.waitFor(), "mkfifo (coreutils) makes the FIFO this test needs");
        assertEquals(fifo + ": not a regular file (a FIFO, a device or a socket); expected a .topo file", error(fifo, 100));
    }

    @Test
    void FMT_17_refusesDirectoriesAndMissingFiles(@TempDir Path dir) {
        assertEquals(dir + ": a directory; expected a .topo file", error(dir, 100));
        assertEquals(dir.resolve("none.topo") + ": no such file; expected a .topo file", error(dir.resolve("none.topo"), 100));
    }

    @Test
    void FMT_17_refusesAFileTooLargeBeforeReadingIt(@TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.topo");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(50L << 20);   // sparse: 50 MiB that cost no disk
        }
        assertEquals(big + ": a file of 52428800 bytes; expected a .topo file of at most 16 MiB (spec/formats.md FMT-17)",
                error(big, InputFile.MAX_TEXT_BYTES));
        Path ok = dir.resolve("ok.topo");
        Files.writeString(ok, "node 0 cpus: 0\n");
        assertArrayEquals("node 0 cpus: 0\n".getBytes(), InputFile.read(ok, 15, "a .topo file"));
        assertEquals(ok + ": a file of 15 bytes; expected a .topo file of at most 14 bytes (spec/formats.md FMT-17)", error(ok, 14));
    }

    @Test
    void FMT_17_sizesReadAsPeopleWriteThem() {
        assertEquals("16 MiB", InputFile.sizeText(16 << 20));
        assertEquals("64 KiB", InputFile.sizeText(64 << 10));
        assertEquals("100 bytes", InputFile.sizeText(100));
    }
}
