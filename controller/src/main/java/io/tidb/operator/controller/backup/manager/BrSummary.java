package io.tidb.operator.controller.backup.manager;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What BR's output says: its success summary, a zap log line such as {@code [2024/05/06
 * 07:08:09.123 +00:00] [INFO] [collector.go:77] ["Full Backup success summary"] [total-ranges=21]
 * ... [total-take=4.1s] [BackupTS=449635446512271361] ... [Size=21695]}, and, when it fails, its
 * last {@code Error: ...} line. Pure.
 */
public final class BrSummary {

  private static final Pattern SUMMARY = Pattern.compile("\\[\"([^\"]+) success summary\"\\]");
  private static final Pattern FIELD = Pattern.compile("\\[([A-Za-z0-9_().-]+)=(\"(?:[^\"\\\\]|\\\\.)*\"|[^\\]]*)\\]");

  /** The summary's name (e.g. {@code Full Backup}) and its fields in order. */
  public record Summary(String name, Map<String, String> fields) {

    public Optional<String> field(String key) {
      return Optional.ofNullable(fields.get(key));
    }

    /** {@code BackupTS}: the TSO the backup is consistent at. */
    public Optional<String> backupTs() {
      return field("BackupTS");
    }

    /** {@code Size}: the bytes written (after compression). */
    public Optional<Long> size() {
      return field("Size").flatMap(BrSummary::parseLong);
    }
  }

  private BrSummary() {}

  /** The last success summary in {@code lines}. */
  public static Optional<Summary> find(List<String> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      Optional<Summary> s = parse(lines.get(i));
      if (s.isPresent()) {
        return s;
      }
    }
    return Optional.empty();
  }

  /** The summary on one line, if the line is one. */
  public static Optional<Summary> parse(String line) {
    Matcher m = SUMMARY.matcher(line);
    if (!m.find()) {
      return Optional.empty();
    }
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher f = FIELD.matcher(line.substring(m.end()));
    while (f.find()) {
      fields.put(f.group(1), unquote(f.group(2)));
    }
    return Optional.of(new Summary(m.group(1), fields));
  }

  /**
   * The value of the BR log field {@code [key=value]} on the last line that has it, e.g. the
   * {@code start-ts} of {@code br log start}'s task line.
   */
  public static Optional<String> lastField(List<String> lines, String key) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      Matcher f = FIELD.matcher(lines.get(i));
      while (f.find()) {
        if (key.equals(f.group(1))) {
          return Optional.of(unquote(f.group(2)));
        }
      }
    }
    return Optional.empty();
  }

  private static String unquote(String v) {
    if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
      return v.substring(1, v.length() - 1).replace("\\\"", "\"");
    }
    return v;
  }

  /** Why BR failed: its last {@code Error:} line, else its last non-blank line. */
  public static Optional<String> error(List<String> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      String l = lines.get(i).strip();
      if (l.startsWith("Error:")) {
        return Optional.of(l.substring("Error:".length()).strip());
      }
    }
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (!lines.get(i).isBlank()) {
        return Optional.of(lines.get(i).strip());
      }
    }
    return Optional.empty();
  }

  private static Optional<Long> parseLong(String s) {
    try {
      return Optional.of(Long.parseLong(s.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
