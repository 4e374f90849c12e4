package io.tidb.operator.controller.tidbcluster.ticdc;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether an upgrade shuts a TiCDC capture down gracefully, from the version its pod runs (its
 * {@code /status}) and the version the cluster wants (the image tag), as upstream decides
 * ({@code isTiCDCPodSupportGracefulUpgrade}):
 *
 * <ul>
 *   <li>a version that does not parse (either side) is tried gracefully, except a pod that runs
 *       {@code latest}/{@code nightly}/{@code master} while the cluster wants a numbered version;
 *   <li>the same version (a restart for a config change) is graceful;
 *   <li>a pod before v6.3.0 cannot hand its tables over across versions: no graceful shutdown;
 *   <li>nor when the wanted version is two or more major versions ahead (v6.x to v8.0).
 * </ul>
 *
 * Pre-release suffixes ({@code -alpha}, {@code -nightly-…}) are ignored, as upstream's comparison
 * does for the pod's version.
 */
final class TicdcVersionCheck {

  private static final Pattern SEMVER =
      Pattern.compile("^v?(\\d{1,9})(?:\\.(\\d{1,9}))?(?:\\.(\\d{1,9}))?(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$");

  /** The first version whose captures can be drained across an upgrade. */
  static final int[] CROSS_UPGRADE = {6, 3, 0};

  private TicdcVersionCheck() {}

  /** The verdict and why, for the status message and the event. */
  record Verdict(boolean graceful, String why) {}

  static Verdict decide(String podVersion, String wanted) {
    Optional<int[]> target = parse(wanted);
    if (target.isEmpty()) {
      return new Verdict(true, "the wanted TiCDC version " + quoted(wanted)
          + " is not a semantic version; trying a graceful shutdown");
    }
    if (latest(podVersion)) {
      return new Verdict(false, "the pod runs TiCDC " + podVersion + ", which cannot be compared"
          + " with " + wanted + "; no graceful shutdown");
    }
    Optional<int[]> pod = parse(podVersion);
    if (pod.isEmpty()) {
      return new Verdict(true, "the pod's TiCDC version " + quoted(podVersion)
          + " is not a semantic version; trying a graceful shutdown");
    }
    int[] p = pod.get();
    int[] t = target.get();
    if (compare(p, t) == 0) {
      return new Verdict(true, "the pod already runs TiCDC " + wanted);
    }
    if (compare(p, CROSS_UPGRADE) < 0) {
      return new Verdict(false, "the pod runs TiCDC " + podVersion + ", before v6.3.0, which"
          + " cannot hand its tables over to another version; no graceful shutdown");
    }
    if (compare(t, new int[] {p[0] + 2, 0, 0}) >= 0) {
      return new Verdict(false, "TiCDC " + podVersion + " to " + wanted + " crosses two major"
          + " versions, which TiCDC cannot hand tables over across; no graceful shutdown");
    }
    return new Verdict(true, "TiCDC " + podVersion + " can hand its tables over to " + wanted);
  }

  /** The tag of an image ({@code latest} without one), as upstream reads the wanted version. */
  static String tag(String image) {
    int colon = image.lastIndexOf(':');
    return colon >= 0 && image.indexOf('/', colon) < 0 ? image.substring(colon + 1) : "latest";
  }

  private static boolean latest(String v) {
    return v != null && (v.equals("latest") || v.equals("nightly") || v.equals("master")
        || v.startsWith("latest-") || v.startsWith("nightly-") || v.startsWith("master-"));
  }

  private static Optional<int[]> parse(String v) {
    Matcher m = v == null ? null : SEMVER.matcher(v);
    if (m == null || !m.matches()) {
      return Optional.empty();
    }
    return Optional.of(new int[] {num(m.group(1)), num(m.group(2)), num(m.group(3))});
  }

  private static int num(String s) {
    return s == null ? 0 : Integer.parseInt(s);
  }

  private static int compare(int[] a, int[] b) {
    for (int i = 0; i < 3; i++) {
      if (a[i] != b[i]) {
        return Integer.compare(a[i], b[i]);
      }
    }
    return 0;
  }

  private static String quoted(String v) {
    return v == null ? "(none)" : "\"" + v + "\"";
  }
}
