package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldViolationsTest {

  @Test
  void aFieldCoversItselfAndWhatIsUnderIt() {
    assertTrue(FieldViolations.covers("spec.pd", "spec.pd"));
    assertTrue(FieldViolations.covers("spec.pd", "spec.pd.replicas"));
    assertTrue(FieldViolations.covers("spec.tikv.storageVolumes", "spec.tikv.storageVolumes[0].name"));
    assertFalse(FieldViolations.covers("spec.pd", "spec.pdms"));
    assertFalse(FieldViolations.covers("spec.pd.replicas", "spec.pd"));
  }

  @Test
  void laterFindingsAboutAnEarlierFieldAreDropped() {
    Violation typed = Violation.invalid("spec.pd.replicas", "three", "must be of type integer");
    Violation required = Violation.required("spec.pd.replicas", "");
    Violation other = Violation.invalid("spec.tikv.replicas", -1, "must be at least 0");
    assertEquals(List.of(typed, other), FieldViolations.plusUncovered(List.of(typed), List.of(required, other)));
    assertEquals(List.of(required, other), FieldViolations.plusUncovered(List.of(), List.of(required, other)));
  }
}
