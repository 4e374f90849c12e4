package io.tidb.operator.controller.tidbcluster.tiflash;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TiFlash version rules upstream applies: a version that is not {@code [v]MAJOR.MINOR.PATCH}
 * (e.g. {@code latest}, {@code nightly}) counts as the newest, as upstream's version check fails
 * on it and takes the default branch.
 */
final class TiflashVersion {

  private static final Pattern SEMVER = Pattern.compile("^v?(\\d+)\\.(\\d+)\\.(\\d+)");

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
}
