package io.tidb.operator.api.validation.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.config.InvalidConfigException;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TiflashConfig;
import io.tidb.operator.api.validation.Violation;
import java.util.List;

/**
 * Rules on TiFlash's main configuration file ({@code spec.tiflash.config.config}): {@code
 * flash.overlap_threshold} is a number in [0, 1], and every log file path names at least one
 * directory above the file (such as {@code /data0/logs/server.log}), as TiFlash creates the
 * directory. A file that does not parse is reported by the always-checked config rule instead.
 */
final class TiflashConfigRules {

  static final String PATH = "spec.tiflash.config.config";

  /** Settings that hold a log file path. */
  static final List<String> LOG_PATHS =
      List.of("flash.flash_cluster.log", "flash.proxy.log-file", "logger.log", "logger.errorlog");

  private TiflashConfigRules() {}

  static void validate(TiflashConfig config, List<Violation> out) {
    if (config == null || config.getConfig() == null) {
      return;
    }
    JsonNode tree = tree(config.getConfig());
    if (tree == null) {
      return;
    }
    JsonNode threshold = at(tree, "flash.overlap_threshold");
    if (threshold != null) {
      if (!threshold.isNumber()) {
        out.add(Violation.invalid(PATH + ".flash.overlap_threshold", threshold.toString(),
            "must be a number between 0 and 1"));
      } else if (threshold.asDouble() < 0 || threshold.asDouble() > 1) {
        out.add(Violation.invalid(PATH + ".flash.overlap_threshold", threshold.numberValue(),
            "must be between 0 and 1"));
      }
    }
    for (String key : LOG_PATHS) {
      JsonNode value = at(tree, key);
      if (value == null) {
        continue;
      }
      if (!value.isTextual()) {
        out.add(Violation.invalid(PATH + "." + key, value.toString(), "must be a file path string"));
      } else if (value.asText().split("/", -1).length < 3) {
        out.add(Violation.invalid(PATH + "." + key, value.asText(),
            "must include at least one directory above the file, e.g. /data0/logs/server.log"));
      }
    }
  }

  /** The value at a dotted path of nested tables; {@code null} when absent or JSON null. */
  private static JsonNode at(JsonNode tree, String dotted) {
    JsonNode node = tree;
    for (String part : dotted.split("\\.")) {
      node = node.get(part);
      if (node == null) {
        return null;
      }
    }
    return node.isNull() ? null : node;
  }

  private static JsonNode tree(ComponentConfig config) {
    try {
      return config.tree();
    } catch (InvalidConfigException e) {
      return null;
    }
  }
}
