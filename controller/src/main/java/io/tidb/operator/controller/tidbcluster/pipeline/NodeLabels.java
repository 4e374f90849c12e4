package io.tidb.operator.controller.tidbcluster.pipeline;

import java.util.Map;
import java.util.Optional;

/**
 * The labels of a Kubernetes Node, read by name (TiProxy's zone labels). Nodes are cluster-scoped:
 * an operator without read access to them gets nothing here and those labels are not set.
 */
public interface NodeLabels {

  /** The labels of Node {@code name}; empty when it does not exist or may not be read. */
  Optional<Map<String, String>> of(String name);

  /** For contexts without Node access. */
  NodeLabels NONE = name -> Optional.empty();
}
