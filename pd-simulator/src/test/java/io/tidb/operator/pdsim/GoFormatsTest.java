package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GoFormatsTest {

  private static final double GIB = 1024.0 * 1024 * 1024;

  @Test
  void bytesSizeUsesFourSignificantDigitsAndBinarySuffixes() {
    assertEquals("100GiB", GoFormats.bytesSize(100 * GIB));
    assertEquals("95.12GiB", GoFormats.bytesSize(95.12 * GIB));
    assertEquals("1.203GiB", GoFormats.bytesSize(1.2034 * GIB));
    assertEquals("0B", GoFormats.bytesSize(0));
    assertEquals("512B", GoFormats.bytesSize(512));
    assertEquals("1KiB", GoFormats.bytesSize(1024));
    assertEquals("4.395MiB", GoFormats.bytesSize(4.395 * 1024 * 1024));
  }

  @Test
  void durationsPrintLikeGo() {
    assertEquals("0s", GoFormats.duration(Duration.ZERO));
    assertEquals("1h0m12.123456789s",
        GoFormats.duration(Duration.ofHours(1).plusSeconds(12).plusNanos(123456789)));
    assertEquals("2m3s", GoFormats.duration(Duration.ofSeconds(123)));
    assertEquals("45s", GoFormats.duration(Duration.ofSeconds(45)));
    assertEquals("1.5ms", GoFormats.duration(Duration.ofNanos(1_500_000)));
    assertEquals("250µs", GoFormats.duration(Duration.ofNanos(250_000)));
    assertEquals("12ns", GoFormats.duration(Duration.ofNanos(12)));
    assertEquals("30m0s", GoFormats.duration(Duration.ofMinutes(30)));
  }

  @Test
  void timestampsAreRfc3339InUtc() {
    Instant instant = Instant.parse("2025-01-15T09:00:12.123456789Z");
    assertEquals("2025-01-15T09:00:12Z", GoFormats.rfc3339(instant));
    assertEquals("2025-01-15T09:00:12.123456789Z", GoFormats.rfc3339Nano(instant));
    assertEquals("2025-01-15T09:00:12.1Z",
        GoFormats.rfc3339Nano(Instant.parse("2025-01-15T09:00:12.100Z")));
    assertEquals("2025-01-15T09:00:12Z",
        GoFormats.rfc3339Nano(Instant.parse("2025-01-15T09:00:12Z")));
  }
}
