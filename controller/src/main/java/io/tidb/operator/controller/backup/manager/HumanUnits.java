package io.tidb.operator.controller.backup.manager;

import java.time.Duration;
import java.util.Locale;

/** Sizes and durations written the way upstream's status shows them. Pure. */
public final class HumanUnits {

  private static final String[] SI = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};

  private HumanUnits() {}

  /** As go-humanize's {@code Bytes}: SI units, one decimal below 10, e.g. {@code 21 kB}, {@code 1.5 MB}. */
  public static String bytes(long n) {
    if (n < 10) {
      return n + " B";
    }
    int e = (int) Math.floor(Math.log(n) / Math.log(1000));
    double val = Math.floor(n / Math.pow(1000, e) * 10 + 0.5) / 10;
    String format = val < 10 ? "%.1f %s" : "%.0f %s";
    return String.format(Locale.ROOT, format, val, SI[e]);
  }

  /** As Go's {@code Duration.Round(time.Second).String()}, e.g. {@code 0s}, {@code 45s}, {@code 1m2s}, {@code 1h0m5s}. */
  public static String goDuration(Duration d) {
    long s = Math.round(d.toMillis() / 1000.0);
    if (s == 0) {
      return "0s";
    }
    String sign = s < 0 ? "-" : "";
    s = Math.abs(s);
    long h = s / 3600;
    long m = (s % 3600) / 60;
    long sec = s % 60;
    if (h > 0) {
      return sign + h + "h" + m + "m" + sec + "s";
    }
    if (m > 0) {
      return sign + m + "m" + sec + "s";
    }
    return sign + sec + "s";
  }
}
