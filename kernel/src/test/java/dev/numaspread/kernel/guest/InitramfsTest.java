package dev.numaspread.kernel.guest;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class InitramfsTest {

    record Read(String name, int mode, byte[] data) {}

    // A reader written from the newc format's description, not from Initramfs.
    static List<Read> read(byte[] cpio) {
        List<Read> out = new ArrayList<>();
        int i = 0;
        for (; ; ) {
            String h = new String(cpio, i, 110, StandardCharsets.US_ASCII);
            assertEquals("070701", h.substring(0, 6));
            int mode = Integer.parseInt(h.substring(14, 22), 16);
            int size = Integer.parseInt(h.substring(54, 62), 16);
            int nameSize = Integer.parseInt(h.substring(94, 102), 16);
            String name = new String(cpio, i + 110, nameSize - 1, StandardCharsets.US_ASCII);
            int data = (i + 110 + nameSize + 3) & ~3;
            if (name.equals("TRAILER!!!")) return out;
            out.add(new Read(name, mode, java.util.Arrays.copyOfRange(cpio, data, data + size)));
            i = (data + size + 3) & ~3;
        }
    }

    @Test
    void entriesAreNewcWithModesAndPadding() throws IOException {
        Initramfs ird = new Initramfs().directory("bin").file("bin/busybox", new byte[]{1, 2, 3}, true).file("init", "#!x\n".getBytes(), true)
                .file("a.ko", new byte[5], false);
        List<Read> r = read(ird.cpio());
        assertEquals(List.of("bin", "bin/busybox", "init", "a.ko"), r.stream().map(Read::name).toList());
        assertEquals(List.of(040755, 0100755, 0100755, 0100644), r.stream().map(Read::mode).toList());
        assertArrayEquals(new byte[]{1, 2, 3}, r.get(1).data());
        assertEquals(0, ird.cpio().length % 512);
        try (GZIPInputStream gz = new GZIPInputStream(new ByteArrayInputStream(ird.bytes()))) {
            assertArrayEquals(ird.cpio(), gz.readAllBytes());
        }
    }

    @Test
    void theInitLoadsTheModulesThenTheProbeThenRunsTheAgent() {
        String init = GuestImage.init(List.of("virtio", "virtio_console"));
        List<String> lines = init.lines().filter(l -> !l.startsWith("#")).toList();
        assertEquals("/bin/busybox insmod /lib/modules/virtio.ko || echo 'numaspread: module virtio not loaded'", lines.get(3));
        assertEquals("/bin/busybox insmod /lib/modules/virtio_console.ko || echo 'numaspread: module virtio_console not loaded'", lines.get(4));
        assertEquals("/bin/busybox insmod /numaspread_probe.ko || echo 'numaspread: probe not loaded'", lines.get(5));
        assertEquals("/agent", lines.get(6));
        assertEquals("/bin/busybox poweroff -f", lines.get(lines.size() - 1));
    }

    @Test
    void moduleDependenciesComeFromModinfo() {
        byte[] ko = "\0\0name=virtio_pci\0depends=virtio,virtio_ring,virtio_pci_modern_dev\0vermagic=6.1\0".getBytes(StandardCharsets.US_ASCII);
        assertEquals(List.of("virtio", "virtio_ring", "virtio_pci_modern_dev"), GuestImage.dependencies(ko));
        assertEquals(List.of(), GuestImage.dependencies("\0depends=\0".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("virtio_pci_modern_dev", GuestImage.moduleName(java.nio.file.Path.of("kernel/drivers/virtio/virtio_pci_modern_dev.ko.xz")));
        assertEquals("snd_hda_intel", GuestImage.moduleName(java.nio.file.Path.of("snd-hda-intel.ko")));
    }
}
