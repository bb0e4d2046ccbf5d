package dev.numaspread.model.topology;

import dev.numaspread.model.topology.TopologyValidation.Mode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every fixture under fixtures/ loads in the mode its expect line asks for, and round-trips. */
class FixturesTest {

    static final Path ROOT = Path.of("..", "fixtures");

    static List<Path> fixtures() throws IOException {
        try (Stream<Path> s = Files.walk(ROOT)) {
            return s.filter(p -> p.toString().endsWith(".topo")).sorted().toList();
        }
    }

    @Test
    void FMT_9_thereAreFixtures() throws IOException {
        List<Path> all = fixtures();
        assertTrue(all.size() >= 30 + 24 - 6, "found " + all.size() + " fixtures");
        assertTrue(all.stream().filter(p -> p.getFileName().toString().startsWith("patho-")).count() >= 8);
    }

    /** FMT-9: a fixture loads in the mode its expect line asks for, and its tags are reported. */
    @TestFactory
    Stream<DynamicTest> FMT_9_everyFixtureLoadsInItsMode() throws IOException {
        return fixtures().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            TopoDocument doc = TopoFormat.read(p);
            Topology t = doc.topology();
            String base = p.getFileName().toString().replaceAll("\\.topo$", "");
            assertEquals(base, t.name(), "topology name = file name");
            assertFalse(t.source().isBlank(), "a fixture names its source");
            for (String tag : doc.expect())
                if (TopologyValidation.KERNEL_RULE_CODES.contains(tag) || TopologyValidation.WARNING_CODES.contains(tag))
                    assertTrue(doc.warns(tag), "expect " + tag + " but warnings are " + doc.warnings());
            if (doc.expect().isEmpty())
                assertTrue(doc.warnings().stream().noneMatch(w -> TopologyValidation.KERNEL_RULE_CODES.contains(w.code())));
            if (doc.expect().stream().anyMatch(TopologyValidation.KERNEL_RULE_CODES::contains))
                assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(p, Optional.of(Mode.STRICT)));
        }));
    }

    /** FMT-11: write → read gives the same topology; read → write → read → write is stable. */
    @TestFactory
    Stream<DynamicTest> FMT_11_everyFixtureRoundTrips() throws IOException {
        return fixtures().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            TopoDocument doc = TopoFormat.read(p);
            String written = TopoFormat.write(doc);
            TopoDocument again = TopoFormat.read(written, "rewritten-" + p.getFileName());
            assertEquals(doc.topology(), again.topology(), written);
            assertEquals(doc.expect(), again.expect());
            assertEquals(doc.notes(), again.notes());
            assertEquals(written, TopoFormat.write(again));
            assertEquals(doc.topology(), TopoFormat.read(TopoFormat.write(doc.topology()), "plain", Optional.of(Mode.LENIENT)).topology());
        }));
    }
}
