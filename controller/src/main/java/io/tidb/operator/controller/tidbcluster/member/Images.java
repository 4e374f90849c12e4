package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.controller.tidbcluster.pipeline.Component;

/**
 * Resolves a component's container image the way upstream does.
 *
 * <ol>
 *   <li>With a {@code baseImage}, the image is {@code baseImage:version}, where the version is the
 *       component's {@code version} if set, else {@code spec.version}; with no version at all it is
 *       {@code baseImage} alone (the registry's {@code latest}).
 *   <li>Without {@code baseImage}, the deprecated full {@code image} field is used as written.
 *   <li>With neither, the base image defaults to {@code pingcap/<component>}.
 * </ol>
 * So {@code baseImage} takes precedence over {@code image}, as upstream's image accessors do.
 */
public final class Images {
  private Images() {}

  /** The default base image of a component, e.g. {@code pingcap/tikv}. */
  public static String defaultBase(Component component) {
    return "pingcap/" + component.label();
  }

  public static String resolve(
      Component component, String baseImage, String image, String componentVersion,
      String clusterVersion) {
    String base = baseImage;
    if (isEmpty(base)) {
      if (!isEmpty(image)) {
        return image;
      }
      base = defaultBase(component);
    }
    String version = componentVersion != null ? componentVersion : clusterVersion;
    return isEmpty(version) ? base : base + ":" + version;
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
