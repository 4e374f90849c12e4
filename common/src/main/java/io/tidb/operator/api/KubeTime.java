package io.tidb.operator.api;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.Year;

/**
 * Reads the timestamps Kubernetes writes ({@code metav1.Time}: RFC 3339 in UTC to the second, e.g.
 * {@code 2026-12-07T09:59:07Z}) as {@link Instant#parse} does, without its formatter for that
 * shape. A settled TidbCluster reconcile reads every pod's creation and Ready times, and {@code
 * Instant.parse} was 4 % of its CPU; this shape costs a few arithmetic steps. Any other text
 * (fractions of a second, an offset, a malformed or out-of-range date) is left to {@code
 * Instant.parse}, so the answer and the exceptions are always that method's.
 */
public final class KubeTime {

  private static final int LENGTH = "2026-12-07T09:59:07Z".length();

  private KubeTime() {}

  /**
   * {@link Instant#parse} of {@code timestamp}.
   *
   * @throws java.time.format.DateTimeParseException as {@code Instant.parse} does
   */
  public static Instant parse(CharSequence timestamp) {
    if (timestamp.length() == LENGTH
        && timestamp.charAt(4) == '-'
        && timestamp.charAt(7) == '-'
        && timestamp.charAt(10) == 'T'
        && timestamp.charAt(13) == ':'
        && timestamp.charAt(16) == ':'
        && timestamp.charAt(19) == 'Z') {
      int year = digits(timestamp, 0, 4);
      int month = digits(timestamp, 5, 2);
      int day = digits(timestamp, 8, 2);
      int hour = digits(timestamp, 11, 2);
      int minute = digits(timestamp, 14, 2);
      int second = digits(timestamp, 17, 2);
      if (year >= 0 && month >= 1 && month <= 12 && day >= 1
          && day <= Month.of(month).length(Year.isLeap(year))
          && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59) {
        long days = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(days * 86_400L + hour * 3_600L + minute * 60L + second);
      }
    }
    return Instant.parse(timestamp);
  }

  /** The decimal number in {@code text[from, from + count)}, or -1 if a character is no digit. */
  private static int digits(CharSequence text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
