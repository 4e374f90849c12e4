package io.tidb.operator.api.validation.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Quantities as Kubernetes' parser takes them (apimachinery's {@code ParseQuantity}). */
class StorageRulesTest {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
      "4Gi, true", "500m, true", "100G, true", "1, true", "+1, true", "-1, true", ".5, true",
      "5., true", "1.5Ti, true", "1E3, true", "1e-3, true", "1.e+3, true", "+.5Ki, true",
      "5.E, true", "0, true",
      "'', false", "lots, false", "1Gb, false", "1.5.5, false", "Gi, false", "1 Gi, false",
      "1e, false", "1e.5, false", "1e+.5, false", "--1, false", "1ki, false", "1e3Gi, false"})
  void aQuantityIsWhatTheApiServerCanRead(String text, boolean quantity) {
    assertEquals(quantity, StorageRules.isQuantity(text));
  }
}
