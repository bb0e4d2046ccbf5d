package dev.numaspread.kernel.guest;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GuestCallTest {

    @Test
    void eachCallAnswersADifferentRoutine() {
        Set<dev.numaspread.conformance.spi.Routine> seen = new java.util.HashSet<>();
        for (Guest.Call c : Guest.Call.values()) seen.add(c.routine());
        assertEquals(Guest.Call.values().length, seen.size());
        assertEquals(EnumSet.allOf(Guest.Call.class).size(), seen.size());
    }
}
