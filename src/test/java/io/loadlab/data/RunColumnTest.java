package io.loadlab.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunColumnTest {

    @Test
    void aSweepRoleIsReadFromItsValue() {
        for (RunColumn.SweepRole r : RunColumn.SweepRole.values()) {
            assertEquals(Optional.of(r), RunColumn.SweepRole.of(r.value()));
        }
        assertEquals(Optional.of(RunColumn.SweepRole.FRACTION), RunColumn.SweepRole.of("fraction"));
    }

    @Test
    void noRoleOutsideASweepNorForAnUnknownValue() {
        assertEquals(Optional.empty(), RunColumn.SweepRole.of(""));
        assertEquals(Optional.empty(), RunColumn.SweepRole.of("Fraction"));
    }
}
