package io.tidb.operator.webhook;

/**
 * Makes a value from a request safe to put in a log line: control characters (line breaks above
 * all, which would let a request forge log lines) and Unicode line separators are escaped, and the
 * value is cut to a length that a Kubernetes name cannot pass. Pure.
 */
final class LogSafe {

  /** Longer than any Kubernetes name (253) or uid; the rest is cut. */
  static final int MAX_LENGTH = 256;

  private LogSafe() {}

  static String value(String raw) {
    if (raw == null) {
      return "";
    }
    StringBuilder out = null;
    int limit = Math.min(raw.length(), MAX_LENGTH);
    for (int i = 0; i < limit; i++) {
      char c = raw.charAt(i);
      String escaped = escape(c);
      if (escaped != null && out == null) {
        out = new StringBuilder(limit + 16).append(raw, 0, i);
      }
      if (out != null) {
        out.append(escaped != null ? escaped : String.valueOf(c));
      }
    }
    String safe = out != null ? out.toString() : raw.substring(0, limit);
    return raw.length() > MAX_LENGTH ? safe + "...(" + raw.length() + " chars)" : safe;
  }

  private static String escape(char c) {
    switch (c) {
      case '\n':
        return "\\n";
      case '\r':
        return "\\r";
      case '\t':
        return "\\t";
      case '"':
        return "\\\"";
      case '\\':
        return "\\\\";
      default:
        if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029
            || (c >= 0x80 && c < 0xa0)) {
          return String.format("\\u%04x", (int) c);
        }
        return null;
    }
  }
}
