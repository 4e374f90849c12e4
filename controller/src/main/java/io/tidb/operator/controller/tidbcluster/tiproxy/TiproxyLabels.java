package io.tidb.operator.controller.tidbcluster.tiproxy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The labels upstream sets on each healthy TiProxy (through its config API) so it can route by
 * zone: PD's {@code replication.location-labels}, each valued from the labels of the pod's Node,
 * plus {@code zone} (TiProxy's own key for zone-aware routing) valued as the first location label
 * that names a zone.
 */
public final class TiproxyLabels {

  /** The location labels that name a zone, in upstream's order of preference. */
  static final List<String> ZONE_LABELS =
      List.of("zone", "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone");

  /** TiProxy's label for zone-aware routing. */
  static final String ZONE = "zone";

  /** Where a short location label is read from when the Node has no label of that name. */
  private static final Map<String, List<String>> NODE_LABELS_OF_SHORT_NAME = Map.of(
      "region", List.of("topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region"),
      "zone", List.of("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"),
      "host", List.of("kubernetes.io/hostname"));

  private static final Pattern SEMVER = Pattern.compile("^v?(\\d+)\\.(\\d+)\\.(\\d+)");

  private TiproxyLabels() {}

  /** The tag of {@code image} ({@code pingcap/tiproxy:v1.3.0} → {@code v1.3.0}); empty without one. */
  public static String versionOf(String image) {
    int colon = image.lastIndexOf(':');
    return colon < 0 || colon < image.lastIndexOf('/') ? "" : image.substring(colon + 1);
  }

  /**
   * Whether TiProxy of image tag {@code version} takes labels: v1.1.0 and later. A tag that is
   * not a version (a custom build) counts as older, as upstream does.
   */
  public static boolean supported(String version) {
    Matcher m = version == null ? null : SEMVER.matcher(version);
    if (m == null || !m.find()) {
      return false;
    }
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    return major > 1 || (major == 1 && minor >= 1);
  }

  /**
   * The first of {@link #ZONE_LABELS} among PD's location labels; empty when none is (upstream
   * then sets no labels at all).
   */
  public static Optional<String> zoneLabel(List<String> locationLabels) {
    return ZONE_LABELS.stream().filter(locationLabels::contains).findFirst();
  }

  /**
   * The labels for a TiProxy on a Node labelled {@code nodeLabels}; empty when the Node has none
   * of the location labels (nothing is set then).
   */
  public static Optional<Map<String, String>> forNode(
      List<String> locationLabels, String zoneLabel, Map<String, String> nodeLabels) {
    Map<String, String> out = new TreeMap<>();
    for (String label : locationLabels) {
      String value = nodeLabels.get(label);
      if (value == null) {
        for (String k8s : NODE_LABELS_OF_SHORT_NAME.getOrDefault(label, List.of())) {
          value = nodeLabels.get(k8s);
          if (value != null) {
            break;
          }
        }
      }
      if (value != null) {
        out.put(label, value);
      }
    }
    if (out.isEmpty()) {
      return Optional.empty();
    }
    // Upstream copies the zone label's value, an empty one when the Node lacks it.
    out.put(ZONE, out.getOrDefault(zoneLabel, ""));
    return Optional.of(out);
  }
}
