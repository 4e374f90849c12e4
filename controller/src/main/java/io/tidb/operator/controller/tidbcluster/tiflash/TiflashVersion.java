package io.tidb.operator.controller.tidbcluster.tiflash;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TiFlash version rules upstream applies: for the config defaults a version that is not
 * {@code [v]MAJOR.MINOR.PATCH} (e.g. {@code latest}, {@code nightly}) counts as the newest, as
 * upstream's version check fails on it and takes the default branch.
 */
final class TiflashVersion {

  private static final Pattern SEMVER = Pattern.compile("^v?(\\d{1,9})\\.(\\d{1,9})\\.(\\d{1,9})");

  private TiflashVersion() {}

  /**
   * Before v7.1.0 TiFlash still serves its TCP (9000) and HTTP (8123) ports, which the config
   * then names explicitly.
   */
  static boolean before710(String version) {
    Matcher m = version == null ? null : SEMVER.matcher(version);
    if (m == null || !m.find()) {
      return false;
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    return major < 7 || (major == 7 && minor < 1);
  }

  /**
   * From v5.1.2 on TiFlash reports its store's status on {@code /tiflash/store-status}, which an
   * upgrade waits on. As upstream's check: {@code latest}, {@code nightly} and {@code master}
   * (and their {@code -…} forms) count as newer; any other version that does not parse skips the
   * check.
   */
  static boolean reportsStoreStatus(String version) {
    if (version == null) {
      return false;
    }
    if (version.equals("latest") || version.equals("nightly") || version.equals("master")
        || version.startsWith("latest-") || version.startsWith("nightly-")
        || version.startsWith("master-")) {
      return true;
    }
    Matcher m = SEMVER.matcher(version);
    if (!m.find()) {
      return false;
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    int patch = Integer.parseInt(m.group(3));
    return major > 5 || (major == 5 && (minor > 1 || (minor == 1 && patch >= 2)));
  }
}
