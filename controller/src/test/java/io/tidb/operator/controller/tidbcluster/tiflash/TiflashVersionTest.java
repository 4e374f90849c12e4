package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TiflashVersionTest {

  @Test
  void versionsBeforeV710StillServeThePlainPorts() {
    assertTrue(TiflashVersion.before710("v6.5.12"));
    assertTrue(TiflashVersion.before710("v7.0.0"));
    assertTrue(TiflashVersion.before710("5.4.0"));
    assertFalse(TiflashVersion.before710("v7.1.0"));
    assertFalse(TiflashVersion.before710("v8.5.7"));
    assertFalse(TiflashVersion.before710("v10.0.0"));
  }

  @Test
  void aVersionThatIsNotSemverCountsAsTheNewest() {
    assertFalse(TiflashVersion.before710("latest"));
    assertFalse(TiflashVersion.before710("nightly"));
    assertFalse(TiflashVersion.before710(null));
  }
}
