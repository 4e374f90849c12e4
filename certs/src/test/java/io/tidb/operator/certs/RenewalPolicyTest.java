package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RenewalPolicyTest {

  @Test
  void windowsMustFitInsideTheValidity() {
    assertEquals(
        "servingValidity PT24H must be longer than servingRenewBefore PT48H",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RenewalPolicy(
                        Duration.ofDays(10),
                        Duration.ofDays(3),
                        Duration.ofDays(1),
                        Duration.ofDays(2),
                        KeyAlgorithm.EC_P256))
            .getMessage());
  }

  @Test
  void caWindowMustCoverTheServingWindow() {
    assertEquals(
        "caRenewBefore PT24H must be at least servingRenewBefore PT48H",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RenewalPolicy(
                        Duration.ofDays(10),
                        Duration.ofDays(1),
                        Duration.ofDays(5),
                        Duration.ofDays(2),
                        KeyAlgorithm.EC_P256))
            .getMessage());
  }

  @Test
  void windowsMustBePositive() {
    assertEquals(
        "servingRenewBefore PT0S must be positive",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RenewalPolicy(
                        Duration.ofDays(10),
                        Duration.ofDays(1),
                        Duration.ofDays(5),
                        Duration.ZERO,
                        KeyAlgorithm.EC_P256))
            .getMessage());
  }
}
