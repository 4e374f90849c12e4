package io.tidb.operator.api.validation.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import io.tidb.operator.api.validation.EnvVarRules;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.Set;

/**
 * Rules on the pod and container fields every component shares ({@code ComponentSpec}):
 * resource quantities, env vars (also those of additional containers) and additional containers.
 */
public final class ComponentRules {

  /** Names of the main containers; additional containers with these names are merged into them. */
  static final Set<String> MAIN_CONTAINERS =
      Set.of("pd", "tikv", "tidb", "tiflash", "ticdc", "tiproxy", "pump", "tso", "scheduling");

  private ComponentRules() {}

  static void validate(String path, ComponentSpec c, List<Violation> out) {
    validate(path, c, MAIN_CONTAINERS, out);
  }

  /**
   * The shared rules for a component of any kind whose main containers are named {@code
   * mainContainers} (an additional container so named is merged into it).
   */
  public static void validate(
      String path, ComponentSpec c, Set<String> mainContainers, List<Violation> out) {
    StorageRules.validateQuantities(path + ".requests", c.getRequests(), out);
    StorageRules.validateQuantities(path + ".limits", c.getLimits(), out);
    EnvVarRules.validate(path + ".env", c.getEnv(), out);
    validateAdditionalContainers(path + ".additionalContainers", c.getAdditionalContainers(),
        mainContainers, out);
  }

  /**
   * Every additional container has a name and an image, except one named like a main container
   * ({@code mainContainers}), which is merged into it; their env vars follow the env rules.
   */
  static void validateAdditionalContainers(
      String path, List<Container> additional, Set<String> mainContainers, List<Violation> out) {
    if (additional == null) {
      return;
    }
    for (int i = 0; i < additional.size(); i++) {
      Container container = additional.get(i);
      String cpath = path + "[" + i + "]";
      if (container == null) {
        out.add(Violation.required(cpath, "must not be null"));
        continue;
      }
      if (isEmpty(container.getName())) {
        out.add(Violation.required(cpath + ".name", "must not be empty"));
      }
      boolean mergedIntoMain = container.getName() != null && mainContainers.contains(container.getName());
      if (!mergedIntoMain && isEmpty(container.getImage())) {
        out.add(Violation.required(cpath + ".image", mainContainers.isEmpty()
            ? "an additional container needs an image"
            : "an additional container needs an image (only one named like the main container is merged into it)"));
      }
      EnvVarRules.validate(cpath + ".env", container.getEnv(), out);
    }
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
