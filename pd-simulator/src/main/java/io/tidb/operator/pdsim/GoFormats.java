package io.tidb.operator.pdsim;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The text formats Go prints for the values PD puts in its JSON. */
final class GoFormats {

  private static final String[] BINARY_UNITS = {
    "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"
  };
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  private GoFormats() {}

  /** go-units {@code BytesSize}: {@code %.4g} plus a binary suffix, e.g. "95.12GiB", "0B". */
  static String bytesSize(double bytes) {
    double size = bytes;
    int unit = 0;
    while (size >= 1024 && unit < BINARY_UNITS.length - 1) {
      size /= 1024;
      unit++;
    }
    return fourSignificantDigits(size) + BINARY_UNITS[unit];
  }

  private static String fourSignificantDigits(double value) {
    if (value == 0) {
      return "0";
    }
    BigDecimal rounded = new BigDecimal(value).round(new MathContext(4, RoundingMode.HALF_EVEN));
    return rounded.stripTrailingZeros().toPlainString();
  }

  /** Go's {@code time.Duration.String()}, e.g. "1h0m12.123456789s", "1.5ms", "0s". */
  static String duration(Duration duration) {
    long nanos = duration.toNanos();
    if (nanos == 0) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    if (nanos < 0) {
      out.append('-');
      nanos = -nanos;
    }
    if (nanos < 1_000_000_000L) {
      if (nanos < 1_000L) {
        return out.append(nanos).append("ns").toString();
      }
      if (nanos < 1_000_000L) {
        return out.append(fraction(nanos, 1_000L)).append("µs").toString();
      }
      return out.append(fraction(nanos, 1_000_000L)).append("ms").toString();
    }
    long hours = nanos / 3_600_000_000_000L;
    long minutes = nanos / 60_000_000_000L % 60;
    long secondNanos = nanos % 60_000_000_000L;
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    return out.append(fraction(secondNanos, 1_000_000_000L)).append('s').toString();
  }

  private static String fraction(long value, long unit) {
    return BigDecimal.valueOf(value)
        .divide(BigDecimal.valueOf(unit))
        .stripTrailingZeros()
        .toPlainString();
  }

  /** Go's {@code time.RFC3339} in UTC, e.g. "2025-01-15T08:00:00Z". */
  static String rfc3339(Instant instant) {
    return SECONDS.format(instant) + "Z";
  }

  /** Go's {@code time.RFC3339Nano} in UTC: the fraction without trailing zeros. */
  static String rfc3339Nano(Instant instant) {
    String text = SECONDS.format(instant);
    int nanos = instant.getNano();
    if (nanos == 0) {
      return text + "Z";
    }
    String fraction = String.format("%09d", nanos).replaceFirst("0+$", "");
    return text + "." + fraction + "Z";
  }
}
