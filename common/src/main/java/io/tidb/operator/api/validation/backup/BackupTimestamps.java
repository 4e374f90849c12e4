package io.tidb.operator.api.validation.backup;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The timestamps upstream accepts in {@code commitTs}, {@code logTruncateUntil}, {@code
 * pitrRestoredTs} and {@code logRestoreStartTs}: a TSO (a decimal number), RFC 3339, or {@code
 * yyyy-MM-dd HH:mm:ss} with an optional zone offset such as {@code +0800} (UTC when none). Pure.
 */
public final class BackupTimestamps {

  private static final DateTimeFormatter WITH_OFFSET = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss Z");
  private static final DateTimeFormatter WITH_OFFSET_NO_SPACE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ssZ");
  private static final DateTimeFormatter PLAIN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /** What the allowed forms are, for error messages. */
  public static final String FORMS =
      "a TSO (decimal number), an RFC 3339 time or yyyy-MM-dd HH:mm:ss with an optional offset such as +0800";

  private BackupTimestamps() {}

  /** The TSO {@code text} stands for; empty when it is none of the accepted forms. */
  public static Optional<Long> toTso(String text) {
    String t = text.trim();
    if (t.matches("[0-9]{1,20}")) {
      try {
        return Optional.of(Long.parseUnsignedLong(t));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return toInstant(t).map(BackupTimestamps::tsoOf);
  }

  /** The TSO of a physical time with logical part 0. */
  public static long tsoOf(Instant instant) {
    return instant.toEpochMilli() << 18;
  }

  /** The physical time of a TSO. */
  public static Instant instantOf(long tso) {
    return Instant.ofEpochMilli(tso >>> 18);
  }

  private static Optional<Instant> toInstant(String t) {
    try {
      return Optional.of(OffsetDateTime.parse(t).toInstant());
    } catch (DateTimeParseException e) {
      // next form
    }
    for (DateTimeFormatter f : new DateTimeFormatter[] {WITH_OFFSET, WITH_OFFSET_NO_SPACE}) {
      try {
        return Optional.of(OffsetDateTime.parse(t, f).toInstant());
      } catch (DateTimeParseException e) {
        // next form
      }
    }
    try {
      return Optional.of(LocalDateTime.parse(t, PLAIN).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
