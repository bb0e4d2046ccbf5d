package dev.numaspread.model.kernel;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The releases the project models, and how a release is named (spec/README.md, "Kernel ranges"). */
class KernelReleaseTest {

    @Test
    void theNewestModelledReleaseIs7_3() {
        assertEquals(KernelRelease.of(7, 3), KernelRelease.NEWEST);
    }

    @Test
    void sevenZeroFollowsSixNineteen() {
        List<KernelRelease> all = KernelRelease.modelledReleases();
        int i = all.indexOf(KernelRelease.of(6, 19));
        assertEquals(KernelRelease.of(7, 0), all.get(i + 1));
        assertEquals(KernelRelease.OLDEST, all.get(0));
        assertEquals(KernelRelease.NEWEST, all.get(all.size() - 1));
        // 4.1..4.20, 5.0..5.19, 6.0..6.19, 7.0..7.3
        assertEquals(20 + 20 + 20 + 4, all.size());
        assertTrue(all.contains(KernelRelease.of(4, 20)));
        assertFalse(all.contains(KernelRelease.of(5, 20)));
    }

    @Test
    void aPointReleaseOrUnameMeansItsSeries() {
        assertEquals(KernelRelease.of(6, 12), KernelRelease.modelled("6.12.3"));
        assertEquals(KernelRelease.of(7, 3), KernelRelease.modelled("7.3.4+deb13-amd64"));
        assertTrue(KernelRelease.isPointOrUname("6.12.3"));
        assertTrue(KernelRelease.isPointOrUname("6.12.117+deb12-amd64"));
        assertFalse(KernelRelease.isPointOrUname("6.12"));
        assertFalse(KernelRelease.isPointOrUname("v6.1"));
    }

    @Test
    void releasesThatNeverExistedOrAreNotModelledAreRefusedNamingTheNewest() {
        assertEquals("kernel release '6.20' never existed (6.19 was the last 6.x; 7.0 followed); expected 4.1 to 7.3"
                + " (the newest modelled release is 7.3)",
                assertThrows(IllegalArgumentException.class, () -> KernelRelease.modelled("6.20")).getMessage());
        assertEquals("kernel release '7.4' is not modelled yet; expected 4.1 to 7.3 (the newest modelled release is 7.3)",
                assertThrows(IllegalArgumentException.class, () -> KernelRelease.modelled("7.4")).getMessage());
        assertEquals("kernel release '3.19' is before 4.1, where cpumask_local_spread appeared; expected 4.1 to 7.3"
                + " (the newest modelled release is 7.3)",
                assertThrows(IllegalArgumentException.class, () -> KernelRelease.modelled("3.19")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> KernelRelease.modelled("5.20"));
        assertThrows(IllegalArgumentException.class, () -> KernelRelease.modelled("4.21.1"));
        assertEquals(KernelRelease.of(4, 20), KernelRelease.modelled("4.20"));
    }

    @Test
    void existsFollowsTheSeries() {
        assertTrue(KernelRelease.of(6, 19).exists());
        assertFalse(KernelRelease.of(6, 20).exists());
        assertTrue(KernelRelease.of(7, 0).exists());
        assertFalse(KernelRelease.of(7, 4).exists());   // not known yet
        assertFalse(KernelRelease.of(8, 0).exists());
    }

    /** The releases of {@code watch} stands for, among the modelled ones. */
    private static List<KernelRelease> standsFor(KernelRelease.Watch watch) {
        return KernelRelease.modelledReleases().stream().filter(watch::standsFor).toList();
    }

    private static List<KernelRelease> releases(String from, String to) {
        return KernelRelease.modelledReleases().stream()
                .filter(k -> k.between(KernelRelease.modelled(from), KernelRelease.modelled(to))).toList();
    }

    @Test
    void aWatchedRunStandsForTheReleasesThatAnswerItsComparisonsAlike() {
        try (KernelRelease.Watch w = KernelRelease.Watch.of(KernelRelease.of(6, 5))) {
            KernelRelease k = w.release();
            assertEquals(KernelRelease.modelledReleases(), standsFor(w), "nothing read yet");
            assertTrue(k.atLeast(6, 3));
            assertFalse(k.before(6, 3));
            assertEquals(releases("6.3", "7.3"), standsFor(w));
            assertTrue(k.between(KernelRelease.of(6, 1), KernelRelease.of(6, 11)));
            assertEquals(releases("6.3", "6.11"), standsFor(w));
            assertTrue(k.exists());
            assertTrue(k.compareTo(KernelRelease.of(6, 9)) < 0);   // an order: 6.9 alone answers 0
            assertEquals(releases("6.3", "6.8"), standsFor(w));
            assertFalse(k.equals(KernelRelease.of(6, 4)));
            assertEquals(List.of(KernelRelease.of(6, 3), KernelRelease.of(6, 5), KernelRelease.of(6, 6),
                    KernelRelease.of(6, 7), KernelRelease.of(6, 8)), standsFor(w));
            assertTrue(KernelRelease.of(6, 4).atLeast(KernelRelease.of(6, 3)), "other releases compared: no reading of the watched one");
            assertTrue(k.equals(k) && k.compareTo(k) == 0 && k.atLeast(k), "the release compared with itself reads nothing");
            assertEquals(5, standsFor(w).size());
            assertFalse(w.readWhole());
        }
    }

    @Test
    void aWatchedRunThatReadsTheReleasesTextStandsForItAlone() {
        try (KernelRelease.Watch w = KernelRelease.Watch.of(KernelRelease.of(7, 1))) {
            assertEquals("7.1", w.release().toString());
            assertTrue(w.readWhole());
            assertEquals(List.of(KernelRelease.of(7, 1)), standsFor(w));
        }
        for (java.util.function.ToIntFunction<KernelRelease> read : List.<java.util.function.ToIntFunction<KernelRelease>>of(
                KernelRelease::major, KernelRelease::minor, KernelRelease::hashCode))
            try (KernelRelease.Watch w = KernelRelease.Watch.of(KernelRelease.of(7, 1))) {
                read.applyAsInt(w.release());
                assertEquals(List.of(KernelRelease.of(7, 1)), standsFor(w));
            }
    }

    @Test
    void oneWatchAtATime() {
        try (KernelRelease.Watch w = KernelRelease.Watch.of(KernelRelease.of(7, 1))) {
            assertThrows(IllegalStateException.class, () -> KernelRelease.Watch.of(KernelRelease.of(7, 2)));
            assertTrue(w.release() != KernelRelease.of(7, 1) && w.release().equals(KernelRelease.of(7, 1)), "a fresh instance of the release");
        }
        KernelRelease.Watch.of(KernelRelease.of(7, 2)).close();
    }
}
