package io.tidb.operator.api.validation.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolume;
import io.tidb.operator.api.validation.EnvVarRules;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Rules on {@code spec.tici} (TiCI, upstream's index service), which this operator keeps as
 * written without managing it: when present it has a {@code meta} and a {@code worker} whose env
 * vars, additional containers and storage volumes follow the component rules, and unless {@code
 * changefeed.enable} is false an {@code s3} section with {@code endpoint} and {@code bucket}.
 */
final class TiciRules {

  private TiciRules() {}

  static void validate(JsonNode tici, List<Violation> out) {
    if (tici == null || tici.isNull() || tici.isMissingNode()) {
      return;
    }
    if (!tici.isObject()) {
      out.add(Violation.invalid("spec.tici", tici.toString(), "must be an object"));
      return;
    }
    for (String part : List.of("meta", "worker")) {
      JsonNode node = tici.get(part);
      String path = "spec.tici." + part;
      if (node == null || node.isNull()) {
        out.add(Violation.required(path, part + " is required when tici is set"));
      } else {
        validatePart(path, node, out);
      }
    }
    JsonNode enable = tici.path("changefeed").path("enable");
    boolean changefeed = !(enable.isBoolean() && !enable.asBoolean());
    if (changefeed) {
      JsonNode s3 = tici.get("s3");
      if (s3 == null || s3.isNull()) {
        out.add(Violation.required("spec.tici.s3", "s3 is required unless changefeed.enable is false"));
      } else {
        for (String field : List.of("endpoint", "bucket")) {
          if (s3.path(field).asText("").isEmpty()) {
            out.add(Violation.required("spec.tici.s3." + field, "must not be empty"));
          }
        }
      }
    }
  }

  private static void validatePart(String path, JsonNode part, List<Violation> out) {
    List<EnvVar> env = list(path + ".env", part.get("env"), EnvVar.class, out);
    EnvVarRules.validate(path + ".env", env, out);
    List<Container> containers = list(path + ".additionalContainers", part.get("additionalContainers"),
        Container.class, out);
    ComponentRules.validateAdditionalContainers(path + ".additionalContainers", containers, Set.of(), out);
    List<StorageVolume> volumes = list(path + ".storageVolumes", part.get("storageVolumes"),
        StorageVolume.class, out);
    StorageRules.validateStorageVolumes(path, volumes, out);
  }

  /**
   * Reads the list at {@code path} as {@code type}; entries that are not of that shape are
   * reported and then the list is not checked further ({@code null}).
   */
  private static <T> List<T> list(String path, JsonNode node, Class<T> type, List<Violation> out) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isArray()) {
      out.add(Violation.invalid(path, node.toString(), "must be a list"));
      return null;
    }
    List<T> items = new ArrayList<>();
    boolean wellFormed = true;
    for (int i = 0; i < node.size(); i++) {
      try {
        items.add(ApiObjects.fromTree(node.get(i), type));
      } catch (IllegalArgumentException e) {
        wellFormed = false;
        out.add(Violation.invalid(path + "[" + i + "]", node.get(i).toString(),
            "must be a " + type.getSimpleName() + " object"));
      }
    }
    return wellFormed ? items : null;
  }
}
