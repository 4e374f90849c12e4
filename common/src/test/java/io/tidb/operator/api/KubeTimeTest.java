package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@link KubeTime#parse} answers as {@link Instant#parse} does, for every input. */
class KubeTimeTest {

  @Test
  void secondsInUtcAcrossCenturiesLeapDaysAndTheEpochMatchInstantParse() {
    SplittableRandom random = new SplittableRandom(19);
    for (int i = 0; i < 20_000; i++) {
      // year 0000 to 9999, as the four digits allow
      long second = random.nextLong(-62_167_219_200L, 253_402_300_800L);
      String text = Instant.ofEpochSecond(second).toString();
      assertEquals(Instant.parse(text), KubeTime.parse(text), text);
    }
    for (String text : new String[] {"1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "2000-02-29T12:00:00Z",
        "2026-12-07T09:59:07Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"}) {
      assertEquals(Instant.parse(text), KubeTime.parse(text), text);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-12-07T09:59:07.123456Z", "2026-12-07T09:59:07.5Z", "2026-12-07T09:59:07+02:00",
      "2026-12-07T09:59:07-00:30", "2026-12-07t09:59:07Z", "2026-12-07T09:59:07z", "2026-12-07T24:00:00Z"})
  void otherShapesInstantParseReadsAreReadByIt(String text) {
    assertEquals(Instant.parse(text), KubeTime.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
      "2026-04-31T00:00:00Z", "2026-12-07T24:00:01Z", "2026-12-07T09:60:00Z", "2026-12-07 09:59:07Z", "2026-1a-07T09:59:07Z", "+026-12-07T09:59:07Z", "", "yesterday"})
  void whatInstantParseRefusesIsRefusedTheSameWay(String text) {
    DateTimeParseException expected = assertThrows(DateTimeParseException.class, () -> Instant.parse(text));
    DateTimeParseException actual = assertThrows(DateTimeParseException.class, () -> KubeTime.parse(text));
    assertEquals(expected.getMessage(), actual.getMessage());
  }

  @Test
  void aLeapSecondIsReadAsInstantParseReadsIt() {
    String text = "2016-12-31T23:59:60Z";
    assertEquals(Instant.parse(text), KubeTime.parse(text));
    assertEquals(Instant.parse("2016-12-31T23:59:59Z"), KubeTime.parse(text).truncatedTo(ChronoUnit.SECONDS));
  }
}
