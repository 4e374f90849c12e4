package io.tidb.operator.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ControllerLoggingTest {

  @Test
  void theFlagInEitherFormWinsOverTheEnvironment() {
    assertEquals("warn", ControllerLogging.level(new String[] {"--workers=5", "--log-level=WARN"}, "debug"));
    assertEquals("error", ControllerLogging.level(new String[] {"--log-level", "error", "--port=1"}, "debug"));
  }

  @Test
  void withoutTheFlagTheEnvironmentThenInfo() {
    assertEquals("debug", ControllerLogging.level(new String[] {"--workers=5"}, "DEBUG"));
    assertEquals("info", ControllerLogging.level(new String[] {}, null));
    assertEquals("info", ControllerLogging.level(new String[] {"--log-level"}, " "));
  }

  @Test
  void theProviderNamedIsTheImagesAndOnTheClassPath() throws Exception {
    assertEquals(org.slf4j.simple.SimpleServiceProvider.class,
        Class.forName(ControllerLogging.PROVIDER).asSubclass(org.slf4j.spi.SLF4JServiceProvider.class));
  }
}
