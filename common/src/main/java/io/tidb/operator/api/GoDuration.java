package io.tidb.operator.api;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.ParseDuration} syntax, used by upstream duration fields such as {@code
 * spec.tikv.evictLeaderTimeout}: a sequence of decimal numbers with units ({@code ns}, {@code us},
 * {@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}), e.g. {@code 1h30m} or {@code 1.5s}, an
 * optional sign, or {@code 0}.
 */
public final class GoDuration {

  private static final Map<String, BigDecimal> NANOS_PER_UNIT = Map.of(
      "ns", BigDecimal.ONE,
      "us", BigDecimal.valueOf(1_000L),
      "µs", BigDecimal.valueOf(1_000L),
      "μs", BigDecimal.valueOf(1_000L),
      "ms", BigDecimal.valueOf(1_000_000L),
      "s", BigDecimal.valueOf(1_000_000_000L),
      "m", BigDecimal.valueOf(60_000_000_000L),
      "h", BigDecimal.valueOf(3_600_000_000_000L));

  private GoDuration() {}

  /**
   * Parses a Go duration.
   *
   * @throws IllegalArgumentException naming the problem if {@code text} is not a Go duration
   */
  public static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("empty duration");
    }
    int i = 0;
    boolean negative = false;
    if (text.charAt(0) == '-' || text.charAt(0) == '+') {
      negative = text.charAt(0) == '-';
      i++;
    }
    if (text.substring(i).equals("0")) {
      return Duration.ZERO;
    }
    if (i == text.length()) {
      throw new IllegalArgumentException("invalid duration \"" + text + "\"");
    }
    BigDecimal nanos = BigDecimal.ZERO;
    while (i < text.length()) {
      int numberStart = i;
      while (i < text.length() && (Character.isDigit(text.charAt(i)) || text.charAt(i) == '.')) {
        i++;
      }
      String number = text.substring(numberStart, i);
      if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
        throw new IllegalArgumentException("invalid duration \"" + text + "\"");
      }
      int unitStart = i;
      while (i < text.length() && !Character.isDigit(text.charAt(i)) && text.charAt(i) != '.') {
        i++;
      }
      String unit = text.substring(unitStart, i);
      if (unit.isEmpty()) {
        throw new IllegalArgumentException("missing unit in duration \"" + text + "\"");
      }
      BigDecimal perUnit = NANOS_PER_UNIT.get(unit);
      if (perUnit == null) {
        throw new IllegalArgumentException("unknown unit \"" + unit + "\" in duration \"" + text + "\"");
      }
      String normalized = number.startsWith(".") ? "0" + number : number;
      nanos = nanos.add(new BigDecimal(normalized).multiply(perUnit));
    }
    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException("duration \"" + text + "\" is too large");
    }
    long total = nanos.longValue();
    return Duration.ofNanos(negative ? -total : total);
  }
}
