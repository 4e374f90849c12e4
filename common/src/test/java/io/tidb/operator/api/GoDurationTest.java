package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {

  @ParameterizedTest
  @CsvSource({
      "0, 0",
      "1500m, 90000000000000",
      "400s, 400000000000",
      "10m, 600000000000",
      "1h30m, 5400000000000",
      "1.5s, 1500000000",
      ".5s, 500000000",
      "250ms, 250000000",
      "3us, 3000",
      "3µs, 3000",
      "7ns, 7",
      "-2m, -120000000000",
      "+1h, 3600000000000",
  })
  void parsesGoSyntax(String text, long nanos) {
    assertEquals(Duration.ofNanos(nanos), GoDuration.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "10", "1x", "m", "1..5s", "1h 30m", "-", "1d", "s10", "ten minutes"})
  void rejectsEverythingElse(String text) {
    assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
  }
}
